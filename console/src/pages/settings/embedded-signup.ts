import { api, ApiError } from '../../api/client.js';
import type { MetaSettings } from '../../api/types.js';

// Meta's Embedded Signup: the Facebook JavaScript SDK opens Meta's own window, where the customer
// picks (or creates) a business account and a number. The window reports the chosen ids as a
// `WA_EMBEDDED_SIGNUP` message; FB.login answers with a one-time code. The service exchanges the
// code and finishes the set-up (`POST /api/meta/signup`). The SDK is loaded only here, on demand.

/** `GET /api/meta/signup/config`. */
export interface SignupConfig {
  app_id: string;
  config_id: string;
  /** The Graph API version (FB.init `version`). */
  graph_version: string;
  /** The Embedded Signup version (FB.login `extras.version`), e.g. `v4`. */
  signup_version: string;
}

interface FacebookSdk {
  init: (options: { appId: string; autoLogAppEvents: boolean; xfbml: boolean; version: string }) => void;
  login: (callback: (response: { authResponse?: { code?: string } | null }) => void, options: Record<string, unknown>) => void;
}

declare global {
  interface Window {
    FB?: FacebookSdk;
  }
}

const SDK_URL = 'https://connect.facebook.net/en_US/sdk.js';

function loadSdk(): Promise<FacebookSdk> {
  if (window.FB) return Promise.resolve(window.FB);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SDK_URL;
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.onload = () => (window.FB ? resolve(window.FB) : reject(new ApiError(0, "Meta's sign-in could not be loaded.")));
    script.onerror = () => reject(new ApiError(0, "Meta's sign-in could not be loaded. Check that this browser can reach facebook.com."));
    document.head.appendChild(script);
  });
}

/** Runs the signup window; resolves with the saved settings once the service has set the number up. */
export async function runEmbeddedSignup(config: SignupConfig): Promise<MetaSettings> {
  const sdk = await loadSdk();
  sdk.init({ appId: config.app_id, autoLogAppEvents: true, xfbml: false, version: config.graph_version });
  let ids: { waba_id?: string; phone_number_id?: string } = {};
  const onMessage = (event: MessageEvent): void => {
    if (!/^https:\/\/([a-z0-9-]+\.)*facebook\.com$/.test(event.origin)) return;
    try {
      const data = typeof event.data === 'string' ? JSON.parse(event.data) : event.data;
      if (data?.type === 'WA_EMBEDDED_SIGNUP' && data.event?.startsWith('FINISH')) ids = data.data ?? {};
    } catch {
      // Other messages of the SDK are not JSON.
    }
  };
  window.addEventListener('message', onMessage);
  try {
    const code = await new Promise<string>((resolve, reject) =>
      sdk.login(
        (response) => {
          const value = response.authResponse?.code;
          if (value) resolve(value);
          else reject(new ApiError(0, 'The signup with Meta was cancelled.'));
        },
        {
          config_id: config.config_id,
          response_type: 'code',
          override_default_response_type: true,
          extras: { setup: {}, sessionInfoVersion: '3', version: config.signup_version },
        },
      ),
    );
    if (!ids.waba_id || !ids.phone_number_id) throw new ApiError(0, 'Meta did not report the chosen business account and number. Please try again.');
    // The code is short-lived: it goes to the service at once, which answers the saved settings.
    return await api.post<MetaSettings>('/api/meta/signup', { code, waba_id: ids.waba_id, phone_number_id: ids.phone_number_id });
  } finally {
    window.removeEventListener('message', onMessage);
  }
}
