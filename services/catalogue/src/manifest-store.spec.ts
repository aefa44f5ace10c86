import type { NatsConnection } from 'nats';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { ReadinessRegistry } from '@transmute/service-kit';
import type { CatalogueConfig } from './config';
import { ManifestStore } from './manifest-store';

describe('ManifestStore before its first read of the bucket', () => {
  it('is unavailable, not empty, so no pair is refused as unconverted while it loads', () => {
    const store = new ManifestStore({} as NatsConnection, new ReadinessRegistry(), { familyPriority: [] } as unknown as CatalogueConfig);
    let thrown: unknown;
    try {
      void store.index;
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServiceFailure);
    expect(thrown).toMatchObject({ code: ErrorCode.UNAVAILABLE, message: expect.stringContaining('still loading') });
  });
});
