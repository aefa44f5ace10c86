import SftpClient from 'ssh2-sftp-client';
import { ErrorCode, ServiceFailure } from '@transmute/contracts';
import { type NetGuardOptions, resolvePublicAddress } from '@transmute/net-guard';
import { networkFailure, safeCause } from './network-failure';
import type { SftpTarget } from './targets';

/**
 * Opens an SFTP session. The host is resolved once and checked; ssh2 then
 * connects to that address, never to the name again. Host keys are not
 * pinned: the spec gives no field for one (docs/decisions.md).
 */
export async function connectSftp(target: SftpTarget, guard: NetGuardOptions, timeoutMs: number): Promise<SftpClient> {
  const { address } = await resolvePublicAddress(target.host, guard);
  // Without callbacks the library console.logs every end and close (and error messages) outside our logger.
  const quiet = () => undefined;
  const client = new SftpClient('transmute', { error: quiet, end: quiet, close: quiet });
  await client.connect({
    host: address,
    port: target.port,
    username: target.username,
    ...(target.password ? { password: target.password } : {}),
    ...(target.privateKey ? { privateKey: target.privateKey } : {}),
    readyTimeout: timeoutMs,
    // Keyboard-interactive and agents would only add ways to hang.
    tryKeyboard: false,
  });
  return client;
}

/** A client-safe failure for an SFTP error. */
export function sftpFailure(error: unknown, target: SftpTarget, remotePath: string): ServiceFailure {
  if (error instanceof ServiceFailure) return error;
  const where = `SFTP ${target.host}:${target.port}`;
  const network = networkFailure(error, where);
  if (network) return network;
  const message = (error as Error | undefined)?.message ?? '';
  if (/authentication|auth methods|permission denied \(publickey|password/i.test(message)) {
    return new ServiceFailure(ErrorCode.FORBIDDEN, `${where} refused the login of user ${target.username}`, false, { cause: safeCause(error) });
  }
  if (/cannot parse privatekey|unsupported key format|encrypted private key/i.test(message)) {
    return ServiceFailure.validation(`${where}: private_key is not a usable private key`);
  }
  if (/no such file|does not exist|ENOENT/i.test(message)) return ServiceFailure.notFound(`${where} has no ${remotePath}`);
  if (/permission denied/i.test(message)) return new ServiceFailure(ErrorCode.FORBIDDEN, `${where} denied access to ${remotePath}`);
  if (/connect|handshake|ready/i.test(message)) {
    return ServiceFailure.unavailable(`${where}: the SSH connection failed`, safeCause(error));
  }
  return new ServiceFailure(ErrorCode.INVALID_ARGUMENT, `${where} failed on ${remotePath}`, false, { cause: safeCause(error) });
}
