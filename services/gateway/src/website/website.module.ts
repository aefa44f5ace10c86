import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { WEBSITE_CONNECT_SOURCES, WEBSITE_FILES, WebsiteController } from './website.controller';
import { WebsiteFiles } from './website-files';

/**
 * Serves the built website (services/website) at `/`, same origin as the API.
 * `connectSources`: origins the pages may send bytes to besides ours (the S3
 * endpoint, where upload forms point with the s3 driver).
 */
@Module({})
export class WebsiteModule {
  static forRoot(options: { websiteDir: string; connectSources: string[] }): DynamicModule {
    const files = new WebsiteFiles(options.websiteDir);
    if (!files.built) new Logger(WebsiteModule.name).warn(`no website in ${options.websiteDir} (run pnpm build); / answers 404`);
    return {
      module: WebsiteModule,
      controllers: [WebsiteController],
      providers: [
        { provide: WEBSITE_FILES, useValue: files },
        { provide: WEBSITE_CONNECT_SOURCES, useValue: options.connectSources },
      ],
    };
  }
}
