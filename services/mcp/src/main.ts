import 'reflect-metadata';
import { runService } from '@transmute/service-kit';
import { AppModule, SERVICE_NAME } from './app.module';
import { mcpConfig } from './config';

// The MCP route parses its own JSON body (after authentication), so no app-wide parser.
void runService({ name: SERVICE_NAME, config: mcpConfig, module: (config) => AppModule.forRoot(config), bodyParser: false });
