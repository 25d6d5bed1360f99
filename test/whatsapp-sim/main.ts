// `npm run sim`: the simulator on a fixed port with its HTTP control API, for linking a simulated
// number to a running service by hand. SIM_PORT (default 7355) is the WebSocket port, the control
// API listens on SIM_CONTROL_PORT (default SIM_PORT + 1).
import { startHttpControl } from './http-control.js';
import { localDemoEnv, pathFrom } from './local-demo.js';
import { SIM_CA_FILE, WhatsAppSimulator } from './whatsapp-simulator.js';

const port = Number(process.env.SIM_PORT ?? 7355);
const controlPort = Number(process.env.SIM_CONTROL_PORT ?? port + 1);
const host = process.env.SIM_HOST ?? '127.0.0.1';

const sim = await WhatsAppSimulator.start({ host, port });
const control = await startHttpControl(sim, controlPort, host);

sim.events.on('refs', () => console.log('a client is showing a QR: POST its code to /scan'));
sim.events.on('login', (device) => console.log(`logged in: ${device.jid}`));
sim.events.on('offline', (device) => console.log(`disconnected: ${device.jid}`));
sim.events.on('passkey', ({ phone, step }) =>
  console.log(`passkey ceremony of ${phone}: ${step}${step === 'nonce' ? `, the phone shows ${sim.passkeyCode(phone)}` : ''}`),
);
sim.events.on('sent', (_device, sent) => console.log(`sent by ${sent.from} to ${sent.to}: ${sent.text ?? '(non-text message)'}`));

console.log(`WhatsApp simulator on ${sim.url}, media host https://${sim.media.hostname} (test-only CA)

Local demo: put these lines in the service's .env (in the directory npm start runs in) and restart it:

${localDemoEnv(sim.url, pathFrom(process.cwd(), SIM_CA_FILE))}

  control API ${control.url}:
    GET  /status                     accounts, devices, online, media host
    POST /scan         {qr, phone}   the phone scans a QR (the "code" the service shows); with
                                     restart_after_ms the link finishes that much later
    POST /messages     {to, from, text, name?, group?, lid?, id?}
    POST /media        {to, from, kind: image|document, mimetype, caption?, file_name?, data_base64?, group?, lid?, id?}
    POST /groups       {jid, to, subject?, members?, addressing_mode?: lid|pn}
    POST /redeliver    {id}
    POST /receipts     {id, type: delivered|read}
    POST /stream-error {phone, code}
    POST /failure      {phone, reason}
    POST /drop         {phone?}
    POST /silence      {phone}       connection stays open but goes quiet
    POST /expire-qr
    POST /pairing-code {phone, code}  the phone enters the pairing code the service shows
    POST /gate         {phone, gated?} the account meets WhatsApp's passkey check at its next scan or code
    POST /passkey      {phone, credential_id, public_key} the phone's passkey (base64url id, P-256 JWK): a gated
                                     account's scan or code then runs the passkey ceremony (the scan answers when it ends)
    GET  /passkey/:phone             that ceremony: step, the code the phone shows, handoff proof, reason
    POST /history      {phone, conversations: [{contact, name?, messages: [{text, fromMe?}]}], progress?}
    GET  /sent?phone=  what linked devices sent (decrypted, media included)`);

const shutdown = (): void => {
  control.server.close();
  void sim.stop().then(() => process.exit(0));
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
