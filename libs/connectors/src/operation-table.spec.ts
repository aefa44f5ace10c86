import { ServiceFailure } from '@transmute/contracts';
import { OperationTable } from './operation-table';

describe('OperationTable', () => {
  const s3 = { operation: 'import/s3', name: 's3' };
  const url = { operation: 'import/url', name: 'url' };

  it('finds the connector of an operation', () => {
    expect(new OperationTable([s3, url], 'import sources').for('import/url')).toBe(url);
  });

  it('refuses two connectors for one operation at construction', () => {
    expect(() => new OperationTable([s3, { ...s3, name: 'other' }], 'import sources')).toThrow('two import sources serve import/s3');
  });

  it('answers an unknown operation with a validation failure naming it', () => {
    let failure: unknown;
    try {
      new OperationTable([s3], 'import sources').for('import/ftp');
    } catch (error) {
      failure = error;
    }
    expect(failure).toBeInstanceOf(ServiceFailure);
    expect((failure as ServiceFailure).message).toBe('import/ftp is not supported by this installation');
    expect((failure as ServiceFailure).code).toBe(ServiceFailure.validation('x').code);
  });
});
