import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, HealthIndicatorService } from '@nestjs/terminus';
import { ReadinessRegistry } from './readiness';

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout(check: () => Promise<boolean>): Promise<boolean> {
  return Promise.race([check().catch(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), CHECK_TIMEOUT_MS).unref())]);
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
      return (await withTimeout(check)) ? indicator.up() : indicator.down({ message: `${name} is not reachable` });
    });
    checks.push(async () => {
      const indicator = this.indicators.check('lifecycle');
      return this.readiness.isDraining ? indicator.down({ message: 'shutting down' }) : indicator.up();
    });
    return this.health.check(checks);
  }
}
