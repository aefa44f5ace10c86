import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ServiceFailure } from '@transmute/contracts';
import { ASSET_NAME, WebsiteFiles } from './website-files';

/**
 * The page's security headers: scripts, styles and requests from our own
 * origin only, no framing (clickjacking), no MIME sniffing, no referrer
 * leaving the site.
 */
export function securityHeaders(response: Pick<Response, 'setHeader'>, connectSources: string[]): void {
  response.setHeader(
    'Content-Security-Policy',
    [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self'",
      "img-src 'self' data:",
      `connect-src 'self'${connectSources.map((source) => ` ${source}`).join('')}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
    ].join('; '),
  );
  response.setHeader('X-Content-Type-Options', 'nosniff');
  response.setHeader('Referrer-Policy', 'same-origin');
  response.setHeader('X-Frame-Options', 'DENY');
}

export const WEBSITE_FILES = Symbol('WEBSITE_FILES');
export const WEBSITE_CONNECT_SOURCES = Symbol('WEBSITE_CONNECT_SOURCES');

/** The single-page website: its pages all answer index.html; the app routes in the browser. */
@Controller()
export class WebsiteController {
  constructor(
    @Inject(WEBSITE_FILES) private readonly files: WebsiteFiles,
    @Inject(WEBSITE_CONNECT_SOURCES) private readonly connectSources: string[],
  ) {}

  @Get(['', 'signin', 'signup', 'dashboard'])
  async page(@Res() response: Response): Promise<void> {
    const file = await this.files.open('index.html');
    if (!file) throw ServiceFailure.notFound('the website is not built: run pnpm build');
    securityHeaders(response, this.connectSources);
    response.setHeader('Cache-Control', 'no-cache');
    this.send(response, file);
  }

  @Get('assets/:name')
  async asset(@Param('name') name: string, @Res() response: Response): Promise<void> {
    const file = ASSET_NAME.test(name) ? await this.files.open(`assets/${name}`) : null;
    if (!file) throw ServiceFailure.notFound('no such file');
    response.setHeader('X-Content-Type-Options', 'nosniff');
    // Vite puts a content hash in every asset name: a changed file is a new name.
    response.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    this.send(response, file);
  }

  @Get('favicon.svg')
  async favicon(@Res() response: Response): Promise<void> {
    const file = await this.files.open('favicon.svg');
    if (!file) throw ServiceFailure.notFound('no such file');
    response.setHeader('Cache-Control', 'public, max-age=86400');
    this.send(response, file);
  }

  private send(response: Response, file: { stream: NodeJS.ReadableStream; size: number; type: string }): void {
    response.status(200);
    response.setHeader('Content-Type', file.type);
    response.setHeader('Content-Length', String(file.size));
    file.stream.pipe(response);
  }
}
