/**
 * Trying settings before keeping them (decisions 11): join the network where
 * there is one, then read the device's channel list from the service with the
 * token and the CA certificate, through the same HttpTransport the agent uses.
 * A failure is one of the reasons `POST /setup` answers 422 with, and a detail
 * with every secret of the settings removed (a service may echo what it got).
 */
import { messageOf, toAgentError } from '../errors.js';
import type { HttpTransport } from '../ports.js';
import { ServiceClient } from '../service/client.js';
import { Paths } from '../wire.js';
import { SecretNames, type SetupSettings } from './settings.js';

/** Why settings did not work: `POST /setup`'s 422 `reason`. */
export type TrialReason = 'network' | 'unreachable' | 'certificate' | 'unauthorized' | 'not-found' | 'refused';

export interface TrialFailure {
  reason: TrialReason;
  /** One line, no secret. */
  detail: string;
}

/** What a trial needs from the board. */
export interface TrialPorts {
  /** The HTTP transport for these settings (their CA certificate). */
  http(settings: SetupSettings): HttpTransport;
  /** Joins the settings' Wi-Fi network; absent on a board without Wi-Fi (and in the simulator). */
  join?(ssid: string, password: string | undefined): Promise<void>;
}

/** Tries `settings`: undefined when the service gave the device's channel list, else why not. */
export async function trySettings(settings: SetupSettings, ports: TrialPorts): Promise<TrialFailure | undefined> {
  const clean = (text: string): string => redact(text, settings);
  if (settings.ssid !== undefined && ports.join !== undefined) {
    try {
      await ports.join(settings.ssid, settings.password);
    } catch (e) {
      return { reason: 'network', detail: clean(`wi-fi ${settings.ssid}: ${messageOf(e)}`) };
    }
  }
  const access = { baseUrl: settings.serviceUrl, device: settings.deviceKey, token: settings.token };
  try {
    await new ServiceClient(ports.http(settings), access).ofDevice(Paths.channelsList);
    return undefined;
  } catch (e) {
    const error = toAgentError(e);
    const detail = clean(error.message);
    if (error.code === 'tls' || /certif|x509|handshake|\btls\b|\bssl\b/i.test(detail))
      return { reason: 'certificate', detail };
    if (error.status === 401 || error.status === 403) return { reason: 'unauthorized', detail };
    if (error.status === 404) return { reason: 'not-found', detail };
    if (error.code === 'network' || error.code === 'timeout') return { reason: 'unreachable', detail };
    return { reason: 'refused', detail };
  }
}

/** `text` with the settings' secrets replaced, in plain and URL-encoded form. */
export function redact(text: string, settings: SetupSettings): string {
  for (const name of SecretNames) {
    const secret = settings[name];
    if (secret === undefined || secret === '') continue;
    for (const form of [secret, encodeURIComponent(secret)]) text = text.split(form).join('[redacted]');
  }
  return text.slice(0, 300);
}
