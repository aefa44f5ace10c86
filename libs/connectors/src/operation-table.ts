import { ServiceFailure } from '@transmute/contracts';

/**
 * The connectors of one worker by the operation each serves (`import/s3`,
 * `export/sftp`...). Two serving the same operation is a wiring mistake and
 * fails at start; asking for one this installation lacks is the client's.
 */
export class OperationTable<Connector extends { readonly operation: string }> {
  private readonly byOperation = new Map<string, Connector>();

  constructor(connectors: readonly Connector[], kind: string) {
    for (const connector of connectors) {
      if (this.byOperation.has(connector.operation)) throw new Error(`two ${kind} serve ${connector.operation}`);
      this.byOperation.set(connector.operation, connector);
    }
  }

  for(operation: string): Connector {
    const connector = this.byOperation.get(operation);
    if (!connector) throw ServiceFailure.validation(`${operation} is not supported by this installation`);
    return connector;
  }
}
