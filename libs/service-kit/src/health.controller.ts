import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { type ReadinessCheck, type ReadinessState, ReadinessRegistry } from './readiness';

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout(check: ReadinessCheck): Promise<ReadinessState> {
  const verdict = check().then(
    (answer): ReadinessState => (typeof answer === 'boolean' ? { ready: answer } : answer),
    (): ReadinessState => ({ ready: false }),
  );
  const late = new Promise<ReadinessState>((resolve) => setTimeout(() => resolve({ ready: false, detail: `no answer within ${CHECK_TIMEOUT_MS} ms` }), CHECK_TIMEOUT_MS).unref());
  return Promise.race([verdict, late]);
}

@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    private readonly readiness: ReadinessRegistry,
  ) {}

  /** Liveness: the event loop answers. Dependencies are readiness's business. */
  @Get('healthz')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  @Get('readyz')
  @HealthCheck()
  ready() {
    const checks = this.readiness.entries().map(([name, check]) => async () => {
      const indicator = this.indicators.check(name);
      const { ready, detail } = await withTimeout(check);
      if (ready) return detail ? indicator.up({ detail }) : indicator.up();
      return indicator.down({ message: detail ?? `${name} is not reachable` });
    });
    checks.push(async () => {
      const indicator = this.indicators.check('lifecycle');
      return this.readiness.isDraining ? indicator.down({ message: 'shutting down' }) : indicator.up();
    });
    return this.health.check(checks);
  }
}
