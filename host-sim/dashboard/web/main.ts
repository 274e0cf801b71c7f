/**
 * The dashboard's entry: sign-in with an access token (kept in
 * sessionStorage, never in the page URL), the hash routes `#/` (device list)
 * and `#/device/<uid>` (a device page), the hub connection and its visible
 * state, and the dispatch of Notify to the open view.
 */
import { Hub } from '../../../src/wire.js';
import { Api, ApiError, type DeviceInfo } from './api.js';
import { DeviceList } from './device-list.js';
import { DeviceView } from './device-view.js';
import { h, replace } from './dom.js';
import { FirmwarePanel } from './firmware-panel.js';
import { HubClient, type HubStatus } from './hub-client.js';
import { splitStateName } from './device-view.js';
import { isObject, parseRecord } from './api.js';

const tokenKey = 'dds.token';
const deviceKey = 'dds.device';
const app = document.getElementById('app') as HTMLElement;
const statusEl = document.getElementById('hub-status') as HTMLElement;
const signOutEl = document.getElementById('sign-out') as HTMLButtonElement;

interface Session {
  api: Api;
  hub: HubClient;
  /** A device token's own device (key or UID), as entered at sign-in; '' for an admin. */
  own: string;
  view: DeviceList | DeviceView | undefined;
}
let session: Session | undefined;

const statusText: Record<HubStatus, string> = {
  connecting: 'connecting…',
  connected: 'live',
  reconnecting: 'reconnecting…',
  closed: 'offline',
};

/** Checks the token: an admin may list devices; a device token must name its device. */
async function signIn(token: string, device: string): Promise<DeviceInfo | undefined> {
  const api = new Api(token);
  try {
    await api.listDevices('');
    return undefined;
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 403) throw e;
  }
  if (device === '') throw new Error('This is a device token: enter its device key (or UID) too.');
  return api.getDevice(device);
}

function signInForm(message = ''): void {
  statusEl.textContent = '';
  signOutEl.hidden = true;
  const token = h('input', { id: 'token', type: 'password', autocomplete: 'off', required: true });
  const device = h('input', {
    id: 'device',
    type: 'text',
    autocomplete: 'off',
    placeholder: 'only for a device token',
  });
  const error = h('p', { class: 'error', role: 'alert' }, message);
  const form = h(
    'form',
    { class: 'sign-in', 'aria-label': 'Sign in' },
    h('h2', {}, 'Sign in'),
    h('label', { for: 'token' }, 'Access token'),
    token,
    h('label', { for: 'device' }, 'Device key or UID'),
    device,
    h('button', { type: 'submit' }, 'Sign in'),
    error,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    signIn(token.value.trim(), device.value.trim())
      .then((own) => {
        sessionStorage.setItem(tokenKey, token.value.trim());
        if (own) sessionStorage.setItem(deviceKey, own.uid);
        else sessionStorage.removeItem(deviceKey);
        start(token.value.trim(), own?.uid ?? '');
      })
      .catch((err: unknown) => replace(error, err instanceof Error ? err.message : String(err)));
  });
  replace(app, form);
  token.focus();
}

function start(token: string, own: string): void {
  const api = new Api(token);
  const hub = new HubClient({
    token,
    onStatus: (s) => {
      statusEl.textContent = statusText[s];
      statusEl.dataset['state'] = s;
      if (s === 'connected' && session?.view instanceof DeviceView) void session.view.resync();
    },
    onNotify: (arg) => dispatch(arg),
  });
  session = { api, hub, own, view: undefined };
  signOutEl.hidden = false;
  hub.start();
  void route();
}

function dispatch(arg: unknown): void {
  const view = session?.view;
  if (view instanceof DeviceView) view.notify(arg);
  else if (
    view instanceof DeviceList &&
    isObject(arg) &&
    arg['type'] === Hub.notifyProperties &&
    typeof arg['entity'] === 'string' &&
    isObject(arg['values'])
  )
    view.properties(arg['entity'], arg['values']);
  else if (
    view instanceof DeviceList &&
    isObject(arg) &&
    arg['type'] === Hub.notifyStates &&
    Array.isArray(arg['states'])
  ) {
    for (const s of arg['states'] as unknown[]) {
      const r = parseRecord(s, 'channel');
      if (splitStateName(r.name).side === 'reported') view.seen(r.entity, r.tsMs);
    }
  }
}

async function route(): Promise<void> {
  const s = session;
  if (!s) return;
  if (s.view instanceof DeviceView) s.view.destroy();
  const m = /^#\/device\/(.+)$/.exec(location.hash);
  try {
    if (m) {
      const uid = decodeURIComponent(m[1] ?? '');
      const view = new DeviceView(s.api, uid);
      s.view = view;
      replace(app, h('nav', {}, h('a', { href: '#/' }, '← Devices')), view.element);
      await view.load();
    } else {
      const list = new DeviceList(s.api, s.own);
      s.view = list;
      const firmware = s.own === '' ? new FirmwarePanel(s.api, () => list.selected()) : undefined;
      replace(app, list.element, firmware?.element);
      await Promise.all([list.load(), firmware?.load()]);
    }
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) return signOut('The access token was not accepted.');
    replace(
      app,
      h('nav', {}, h('a', { href: '#/' }, '← Devices')),
      h('p', { class: 'error', role: 'alert' }, e instanceof Error ? e.message : String(e)),
    );
  }
}

function signOut(message = ''): void {
  session?.hub.stop();
  if (session?.view instanceof DeviceView) session.view.destroy();
  session = undefined;
  sessionStorage.removeItem(tokenKey);
  sessionStorage.removeItem(deviceKey);
  signInForm(message);
}

signOutEl.addEventListener('click', () => signOut());
window.addEventListener('hashchange', () => void route());
window.addEventListener('resize', () => {
  if (session?.view instanceof DeviceView) session.view.resize();
});

// A token of this tab's session was checked at sign-in; a 401 on any call signs out.
const saved = sessionStorage.getItem(tokenKey);
if (saved === null) signInForm();
else start(saved, sessionStorage.getItem(deviceKey) ?? '');
