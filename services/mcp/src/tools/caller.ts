/** Who is calling the MCP server, as the gateway's accounts side said. */
export interface McpCaller {
  accountId: string;
  via: 'api_key' | 'oauth';
  /** OAuth: the connected application's client id; empty for an API key. */
  clientId: string;
}
