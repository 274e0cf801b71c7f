/**
 * One provisioning (decisions 11): `POST <board>/setup` with
 * `Authorization: Bearer <setup code>` and the settings as JSON, and the
 * board's answer as one line: `200 provisioned demo-001 ...`, `422
 * unauthorized: GET /api/v1/channels/list: 401 ...`, `401 wrong or missing
 * setup code`, `429 too many wrong codes (retry in 4 s)`. The board tries the
 * settings before it answers (up to about 40 s with a Wi-Fi join), so the wait
 * is long. Nothing secret is in the line: the board never echoes one, and the
 * line is redacted here too.
 */
import { AgentError } from '../../src/errors.js';
import type { HttpTransport } from '../../src/ports.js';
import { ServiceClient, type ServiceAccess } from '../../src/service/client.js';
import { Paths } from '../../src/wire.js';
import type { SetupSettings } from '../../src/setup/settings.js';

/** The device property that dates a provisioning (decisions 8); the dashboard compares it with the last report. */
export const ProvisionedAtProperty = 'provisioned-at';

/**
 * Tells the service that the device was provisioned at `atIso`: its property
 * `provisioned-at`, set through the spec's `properties/set` with the device's
 * own token (nothing beyond what the spec carries).
 */
export async function recordProvisioning(http: HttpTransport, access: ServiceAccess, atIso: string): Promise<void> {
  const client = new ServiceClient(http, access);
  await client.post(Paths.propertiesSet, `${client.devicePrefix()}"values":{"${ProvisionedAtProperty}":"${atIso}"}}`);
}

export interface ProvisionRequest {
  board: string;
  code: string;
  /** What the board's `POST /setup` takes (the core's own type, src/setup/settings.ts). */
  settings: SetupSettings;
  timeoutMs: number;
}

export interface ProvisionResult {
  status: number;
  /** The board's answer, one line. */
  line: string;
}

/** Posts the settings; rejects with AgentError `network`/`timeout` when the board does not answer. */
export async function provision(request: ProvisionRequest): Promise<ProvisionResult> {
  let response: Response;
  try {
    response = await fetch(`${request.board}/setup`, {
      method: 'POST',
      headers: { authorization: `Bearer ${request.code}`, 'content-type': 'application/json' },
      body: JSON.stringify(request.settings),
      signal: AbortSignal.timeout(request.timeoutMs),
    });
  } catch (e) {
    const error = e as { name?: string; cause?: { code?: string; message?: string }; message?: string };
    if (error.name === 'TimeoutError')
      throw new AgentError('timeout', `board ${request.board}: no answer in ${request.timeoutMs / 1000} s`);
    const why = error.cause?.code ?? error.cause?.message ?? error.message ?? String(e);
    throw new AgentError('network', `board ${request.board}: ${why}`);
  }
  const text = await response.text().catch(() => '');
  return { status: response.status, line: redact(`${response.status} ${describe(response, text)}`, request) };
}

function describe(response: Response, text: string): string {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    return text.replace(/\s+/g, ' ').slice(0, 200) || response.statusText;
  }
  if (response.status === 200) return `provisioned ${String(body.device)} to ${String(body.service)}`;
  const retry = response.headers.get('retry-after');
  const parts = [body.reason, body.detail ?? body.error].filter((p) => typeof p === 'string' && p !== '');
  return parts.join(': ') + (retry === null ? '' : ` (retry in ${retry} s)`);
}

function redact(line: string, request: ProvisionRequest): string {
  for (const secret of [request.settings.token, request.settings.password, request.code]) {
    if (secret !== undefined && secret.length >= 4) line = line.split(secret).join('[redacted]');
  }
  return line.replace(/[\r\n]+/g, ' ');
}
