/**
 * The MCP server's one OAuth scope: list formats, convert from public URLs
 * with the account, read its jobs. Issued by the gateway, required by mcp.
 */
export const MCP_SCOPE = 'convert';
