import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { FORMAT_NAME_PATTERN } from '@transmute/contracts';
import { ErrorCode } from '@transmute/contracts';
import type { PlatformClient } from '../platform/platform-client';
import { toolErrorOf } from './tool-errors';

const Input = {
  input_format: z
    .string()
    .regex(FORMAT_NAME_PATTERN, 'a format name is its file extension: 1 to 16 letters or digits, e.g. "png"')
    .optional()
    .describe('A format name (file extension, e.g. "png"). Given: the formats it converts to. Omitted: every format the platform reads.'),
};
const Output = {
  input_format: z.string().nullable().describe('The format asked about, lowercase; null when listing every readable format.'),
  formats: z.array(z.string()).describe('Lowercase format names.'),
};

export function registerListFormats(server: McpServer, platform: PlatformClient): void {
  server.registerTool(
    'list_formats',
    {
      title: 'List formats',
      description: 'Lists the formats Transmute reads, or the formats one input format converts to. Use it before convert to check a conversion exists.',
      inputSchema: Input,
      outputSchema: Output,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ input_format }) => {
      try {
        const inputFormat = input_format?.toLowerCase() ?? null;
        const formats = await platform.formats(inputFormat ?? '');
        const structured = { input_format: inputFormat, formats };
        const text = inputFormat
          ? formats.length > 0
            ? `${inputFormat} converts to: ${formats.join(', ')}`
            : `Transmute cannot convert ${inputFormat} files; call list_formats without input_format for the readable formats.`
          : `Readable formats: ${formats.join(', ')}`;
        return { structuredContent: structured, content: [{ type: 'text', text }] };
      } catch (error) {
        return toolErrorOf(error, { [ErrorCode.NOT_FOUND]: 'Call list_formats without input_format to see the formats Transmute reads.' });
      }
    },
  );
}
