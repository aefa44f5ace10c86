import { create } from '@bufbuild/protobuf';
import {
  type DeadLetter,
  DeadLetterSchema,
  ErrorCode,
  ServiceFailure,
  Subjects,
  type UsageCounters,
  WebhookDeliveriesReplySchema,
  WebhookDeliveriesRequestSchema,
  WebhookDeliveryListSchema,
} from '@transmute/contracts';
import { toJson } from '@bufbuild/protobuf';
import type { ReadDeadLettersOptions, RpcClient } from '@transmute/messaging';
import { type AccountQuota, type AccountsService, accountView } from '../accounts';
import { type DevKeySeeder, type KeysService } from '../keys';
import { type PeopleService } from '../people';
import { formatGb, type Plan, type Plans } from '../limits';

export interface AdminServices {
  accounts: AccountsService;
  keys: KeysService;
  plans: Plans;
  quota: AccountQuota;
  seeder: DevKeySeeder;
  rpc: RpcClient;
  people: PeopleService;
  /** The newest dead letters of every service (the DEAD_LETTERS stream). */
  deadLetters(options: ReadDeadLettersOptions): Promise<DeadLetter[]>;
}

/** What a command prints: JSON with --json, text otherwise. */
export interface CommandOutput {
  json: unknown;
  text: string;
}

export interface ParsedCommand {
  words: string[];
  options: { name?: string; plan?: string; label?: string; 'allow-ip'?: string[]; 'if-absent'?: boolean; source?: string; limit?: string };
}

export const USAGE = `transmute-admin <command> [--json]

  accounts create <id> [--name <name>] [--plan <plan>] [--if-absent]
  accounts list
  accounts show <id>                 account, plan, keys and usage
  accounts set-plan <id> <plan>
  accounts suspend <id>              its keys and website sessions stop at once
  accounts unsuspend <id>
  people list                        website sign-ups: email, account, created
  keys create <account> [--allow-ip <ip|cidr>]... [--label <text>]   prints the key once
  keys list <account>
  keys delete <prefix>               effective at once on every gateway replica
  plans list
  signing-secret show <account>
  signing-secret rotate <account>
  usage show <account>
  webhooks deliveries <jobId>        the webhook delivery log of a job
  dead-letters list [--source <service>] [--limit <n>]   messages given up on, newest first (default 50)
  seed-dev                           account "dev" and TRANSMUTE_DEV_API_KEY (make up)

Reads TRANSMUTE_MONGODB_URI, TRANSMUTE_NATS_URL and TRANSMUTE_PLANS like the gateway. Beside a running
\`make up\`, the values it wrote to .transmute/endpoints.json (found from the current folder up, or named
by TRANSMUTE_ENDPOINTS_FILE) fill in what the environment does not set.`;

/** Every command, checked before connecting to anything. */
export const COMMANDS = [
  'accounts create',
  'accounts list',
  'accounts show',
  'accounts set-plan',
  'accounts suspend',
  'accounts unsuspend',
  'people list',
  'keys create',
  'keys list',
  'keys delete',
  'plans list',
  'signing-secret show',
  'signing-secret rotate',
  'usage show',
  'webhooks deliveries',
  'dead-letters list',
  'seed-dev',
] as const;

export function isKnownCommand(words: string[]): boolean {
  return (COMMANDS as readonly string[]).includes(words[0] === 'seed-dev' ? 'seed-dev' : words.slice(0, 2).join(' '));
}

const usageError = (message: string): ServiceFailure => new ServiceFailure(ErrorCode.INVALID_ARGUMENT, `${message}\n\n${USAGE}`);

function arg(words: string[], index: number, name: string): string {
  const value = words[index];
  if (!value) throw usageError(`missing <${name}>`);
  return value;
}

export function planJson(plan: Plan) {
  return {
    name: plan.name,
    monthlyBytes: plan.monthlyBytes,
    additionalBytes: plan.additionalBytes,
    dailyConversions: plan.dailyConversions,
    convertAllowance: plan.convertAllowance,
    rateLimitPerMinute: plan.rateLimitPerMinute,
  };
}

const planText = (plan: Plan): string =>
  `${plan.name}: ${formatGb(plan.monthlyBytes)} monthly, ${formatGb(plan.additionalBytes)} additional, ${plan.dailyConversions} daily conversions, ${plan.convertAllowance} converts per job, ${plan.rateLimitPerMinute} requests/min`;

export function usageJson(usage: UsageCounters) {
  return {
    accountId: usage.accountId,
    plan: usage.plan,
    month: usage.month,
    monthlyUsedBytes: Number(usage.monthlyUsedBytes),
    monthlyAllowanceBytes: Number(usage.monthlyAllowanceBytes),
    additionalUsedBytes: Number(usage.additionalUsedBytes),
    additionalAllowanceBytes: Number(usage.additionalAllowanceBytes),
    day: usage.day,
    dailyConversionsUsed: usage.dailyConversionsUsed,
    dailyConversionsAllowance: usage.dailyConversionsAllowance,
  };
}

const usageText = (usage: UsageCounters): string =>
  [
    `monthly (${usage.month}):    ${formatGb(Number(usage.monthlyUsedBytes))} of ${formatGb(Number(usage.monthlyAllowanceBytes))}`,
    `additional:           ${formatGb(Number(usage.additionalUsedBytes))} of ${formatGb(Number(usage.additionalAllowanceBytes))}`,
    `daily conversions (${usage.day}): ${usage.dailyConversionsUsed} of ${usage.dailyConversionsAllowance}`,
  ].join('\n');

/** Runs one command against the accounts module. */
export async function runCommand(services: AdminServices, { words, options }: ParsedCommand): Promise<CommandOutput> {
  const { accounts, keys: apiKeys, quota } = services;
  const command = words.slice(0, 2).join(' ');
  switch (command) {
    case 'accounts create': {
      const account = await accounts.createAccount(
        { id: arg(words, 2, 'id'), ...(options.name !== undefined && { name: options.name }), ...(options.plan !== undefined && { plan: options.plan }) },
        { ifAbsent: options['if-absent'] ?? false },
      );
      const view = accountView(account);
      return { json: view, text: `account ${view.id} (plan ${view.plan})` };
    }
    case 'accounts list': {
      const views = (await accounts.listAccounts()).map(accountView);
      return { json: views, text: views.map((a) => `${a.id}\t${a.plan}${a.suspended ? '\tsuspended' : ''}\t${a.name}`).join('\n') || '(no accounts)' };
    }
    case 'accounts show': {
      const account = await accounts.account(arg(words, 2, 'id'));
      const [keys, usage] = await Promise.all([apiKeys.listKeys(account._id), quota.counters(account._id)]);
      const plan = accounts.planOf(account);
      return {
        json: { ...accountView(account), planLimits: planJson(plan), keys, usage: usageJson(usage) },
        text: [
          `account ${account._id} ${account.name ? `(${account.name})` : ''}`.trim(),
          `plan    ${planText(plan)}`,
          `keys    ${keys.map((k) => `${k.prefix}${k.allowedIps.length ? ` [${k.allowedIps.join(', ')}]` : ''}`).join(', ') || '(none)'}`,
          usageText(usage),
        ].join('\n'),
      };
    }
    case 'accounts set-plan': {
      const view = accountView(await accounts.setPlan(arg(words, 2, 'id'), arg(words, 3, 'plan')));
      return { json: view, text: `account ${view.id} is on plan ${view.plan}` };
    }
    case 'accounts suspend':
    case 'accounts unsuspend': {
      const view = accountView(await accounts.setSuspended(arg(words, 2, 'id'), words[1] === 'suspend'));
      return { json: view, text: `account ${view.id} is ${view.suspended ? 'suspended' : 'active'}` };
    }
    case 'people list': {
      const people = await services.people.list();
      return { json: people, text: people.map((p) => `${p.email}\t${p.accountId}\t${p.createdAt}`).join('\n') || '(no people)' };
    }
    case 'keys create': {
      const created = await apiKeys.createKey(arg(words, 2, 'account'), {
        ...(options.label !== undefined && { label: options.label }),
        allowedIps: options['allow-ip'] ?? [],
      });
      return {
        json: { key: created.key, ...created.view },
        text: `${created.key}\n(shown once: only its hash is stored; prefix ${created.view.prefix}${created.view.allowedIps.length ? `, allowed from ${created.view.allowedIps.join(', ')}` : ''})`,
      };
    }
    case 'keys list': {
      const keys = await apiKeys.listKeys(arg(words, 2, 'account'));
      return {
        json: keys,
        text: keys.map((k) => `${k.prefix}\t${k.createdAt}\t${k.allowedIps.join(',') || 'any address'}\t${k.label}`).join('\n') || '(no keys)',
      };
    }
    case 'keys delete': {
      const prefix = arg(words, 2, 'prefix');
      await apiKeys.deleteKey(prefix);
      return { json: { deleted: prefix }, text: `key ${prefix} deleted` };
    }
    case 'plans list': {
      const plans = services.plans.list();
      return { json: plans.map(planJson), text: plans.map(planText).join('\n') };
    }
    case 'signing-secret show':
    case 'signing-secret rotate': {
      const id = arg(words, 2, 'account');
      const secret = words[1] === 'rotate' ? await accounts.rotateSigningSecret(id) : await accounts.signingSecret(id);
      return { json: { accountId: id, signingSecret: secret }, text: secret };
    }
    case 'usage show': {
      const usage = await quota.counters(arg(words, 2, 'account'));
      return { json: usageJson(usage), text: usageText(usage) };
    }
    case 'webhooks deliveries': {
      const list = await services.rpc.request(
        Subjects.webhooksDeliveries,
        WebhookDeliveriesRequestSchema,
        create(WebhookDeliveriesRequestSchema, { jobId: arg(words, 2, 'jobId') }),
        WebhookDeliveriesReplySchema,
      );
      const text = list.deliveries
        .map(
          (d) => `${d.deliveryId}\t${d.state}\t${d.event}\t${d.url}\t${d.attempts.length} attempt(s)${d.attempts.at(-1)?.error ? `\tlast error: ${d.attempts.at(-1)?.error}` : ''}`,
        )
        .join('\n');
      return { json: toJson(WebhookDeliveryListSchema, list), text: text || '(no deliveries)' };
    }
    case 'dead-letters list': {
      const limit = options.limit === undefined ? 50 : Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) throw usageError('--limit must be a whole number from 1 to 10000');
      const letters = await services.deadLetters({ limit, ...(options.source !== undefined && { source: options.source }) });
      return { json: letters.map((letter) => deadLetterJson(letter)), text: letters.map(deadLetterText).join('\n') || '(no dead letters)' };
    }
    default:
      if (words[0] === 'seed-dev') {
        const seeded = await services.seeder.seed();
        if (!seeded) throw usageError('seed-dev needs TRANSMUTE_DEV_API_KEY');
        return { json: seeded, text: `account ${seeded.accountId} opens with key ${seeded.keyPrefix}` };
      }
      throw usageError(words.length ? `unknown command "${words.join(' ')}"` : 'no command');
  }
}

/** A dead letter for --json: every field but the original bytes, whose size is given instead. */
export function deadLetterJson(letter: DeadLetter) {
  const { payload: _payload, ...fields } = toJson(DeadLetterSchema, letter, { alwaysEmitImplicit: true }) as Record<string, unknown>;
  return { ...fields, payloadBytes: letter.payload.length };
}

function deadLetterText(letter: DeadLetter): string {
  const when = letter.deadAt ? new Date(Number(letter.deadAt.seconds) * 1000).toISOString() : '?';
  const subject = [letter.jobId && `job ${letter.jobId}`, letter.taskName && `task ${letter.taskName}`, letter.deliveryId && `delivery ${letter.deliveryId}`]
    .filter(Boolean)
    .join(', ');
  return `${when}\t${letter.source}\t${letter.kind}\t${subject || letter.id}\t${letter.attempts} attempt(s)\t${letter.error}`;
}
