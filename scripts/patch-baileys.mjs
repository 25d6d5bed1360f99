// Applied at install (`postinstall`): two small patches of the pinned Baileys.
//
// 1. The delivery receipt of an inbound message goes to WhatsApp only after the service has
//    stored it. Baileys (lib/Socket/messages-recv.js, handleMessage) sends the receipt, or for a
//    newsletter the message ack, before it emits the message; WhatsApp never sends an acknowledged
//    message again, so a worker that dies between the two loses it. The patch hands the receipt to
//    a socket option instead, `deferInboundReceipt(key, send)`, when one is given: the driver calls
//    `send` once the message's transaction committed (docs/operations.md, "Nothing acknowledged is
//    lost"). Without the option Baileys behaves exactly as before.
// 2. The QR timer of a registering socket (lib/Socket/socket.js, genPairQR) rotates codes and ends
//    the socket with 408 "QR refs attempts ended" once they run out: in the middle of WhatsApp's
//    passkey check, while a person is at their browser (docs/passkey.md). The timer is private to
//    the socket, so the patch asks a socket option, `holdPairingQr()`, at each tick: while it says
//    true, no code is shown and the socket is not ended. Without the option nothing changes.
//
// The script is idempotent (a patched file is left alone) and fails the install when the code it
// patches is not there (a Baileys upgrade changed it): the patch must be redone, never silently
// dropped. test/chat/baileys-receipt-patch.spec.ts and test/chat/baileys-qr-hold-patch.spec.ts
// check the installed files and the behaviour.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export const PATCH_MARK = 'inbox-patch:deferred-inbound-receipt:v1';
export const QR_HOLD_MARK = 'inbox-patch:hold-pairing-qr:v1';
const SOCKET_DIR = join(import.meta.dirname, '..', 'node_modules', '@whiskeysockets', 'baileys', 'lib', 'Socket');
export const PATCHED_FILE = join(SOCKET_DIR, 'messages-recv.js');
export const QR_PATCHED_FILE = join(SOCKET_DIR, 'socket.js');

const RECEIPT_BEFORE = `                        acked = true;
                        await sendReceipt(msg.key.remoteJid, participant, [msg.key.id], type);
                        // send ack for history message
                        const isAnyHistoryMsg = getHistoryMsg(msg.message);
                        if (isAnyHistoryMsg) {
                            const jid = jidNormalizedUser(msg.key.remoteJid);
                            await sendReceipt(jid, undefined, [msg.key.id], 'hist_sync'); // TODO: investigate
                        }`;
const RECEIPT_AFTER = `                        acked = true;
                        // ${PATCH_MARK}: the receipts go once the message is stored
                        const sendReceipts = async () => {
                            await sendReceipt(msg.key.remoteJid, participant, [msg.key.id], type);
                            // send ack for history message
                            const isAnyHistoryMsg = getHistoryMsg(msg.message);
                            if (isAnyHistoryMsg) {
                                const jid = jidNormalizedUser(msg.key.remoteJid);
                                await sendReceipt(jid, undefined, [msg.key.id], 'hist_sync'); // TODO: investigate
                            }
                        };
                        if (config.deferInboundReceipt) config.deferInboundReceipt({ ...msg.key }, sendReceipts);
                        else await sendReceipts();`;
const ACK_BEFORE = `                        acked = true;
                        await sendMessageAck(node);
                        logger.debug({ key: msg.key }, 'processed newsletter message without receipts');`;
const ACK_AFTER = `                        acked = true;
                        // ${PATCH_MARK}: the ack goes once the message is stored
                        if (config.deferInboundReceipt) config.deferInboundReceipt({ ...msg.key }, () => sendMessageAck(node));
                        else await sendMessageAck(node);
                        logger.debug({ key: msg.key }, 'processed newsletter message without receipts');`;

const QR_BEFORE = `        const genPairQR = () => {
            if (!ws.isOpen) {
                return;
            }`;
const QR_AFTER = `        const genPairQR = () => {
            if (!ws.isOpen) {
                return;
            }
            // ${QR_HOLD_MARK}: no code, and no end, while the passkey check runs
            if (config.holdPairingQr?.()) {
                qrTimer = setTimeout(genPairQR, qrMs);
                return;
            }`;

/** The patched text of messages-recv.js; throws when the code to patch is not found exactly once. */
export function patchSource(source) {
  return applyPatch(source, PATCH_MARK, PATCHED_FILE, [
    [RECEIPT_BEFORE, RECEIPT_AFTER],
    [ACK_BEFORE, ACK_AFTER],
  ]);
}

/** The patched text of socket.js (the QR hold); throws as `patchSource` does. */
export function patchSocketSource(source) {
  return applyPatch(source, QR_HOLD_MARK, QR_PATCHED_FILE, [[QR_BEFORE, QR_AFTER]]);
}

function applyPatch(source, mark, file, replacements) {
  if (source.includes(mark)) return source;
  let patched = source;
  for (const [before, after] of replacements) {
    const at = patched.indexOf(before);
    if (at < 0 || patched.indexOf(before, at + 1) >= 0) {
      throw new Error(`patch-baileys: the patched code of ${file} changed (Baileys upgraded?); redo scripts/patch-baileys.mjs for it`);
    }
    patched = patched.replace(before, after);
  }
  return patched;
}

function main() {
  const present = [PATCHED_FILE, QR_PATCHED_FILE].filter((file) => existsSync(file));
  if (present.length === 0) {
    // An install without Baileys (npm ci --omit of it) has nothing to patch.
    console.log('patch-baileys: @whiskeysockets/baileys is not installed; nothing to patch');
    return;
  }
  // One file gone is a Baileys that changed shape: never patch half of it silently.
  if (present.length === 1) throw new Error(`patch-baileys: ${present[0]} is there but not its sibling (Baileys upgraded?); redo scripts/patch-baileys.mjs`);
  for (const [file, patch, what] of [
    [PATCHED_FILE, patchSource, 'inbound receipts wait for the stored message'],
    [QR_PATCHED_FILE, patchSocketSource, 'the QR timer waits while a passkey check runs'],
  ]) {
    const source = readFileSync(file, 'utf8');
    const patched = patch(source);
    if (patched === source) console.log(`patch-baileys: already patched (${what})`);
    else {
      writeFileSync(file, patched);
      console.log(`patch-baileys: ${what}`);
    }
  }
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main();
