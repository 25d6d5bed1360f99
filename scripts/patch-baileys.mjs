// Applied at install (`postinstall`): one small patch of the pinned Baileys, so the delivery
// receipt of an inbound message goes to WhatsApp only after the service has stored it.
//
// Baileys (lib/Socket/messages-recv.js, handleMessage) sends the receipt, or for a newsletter the
// message ack, before it emits the message; WhatsApp never sends an acknowledged message again, so
// a worker that dies between the two loses it. The patch hands the receipt to a socket option
// instead, `deferInboundReceipt(key, send)`, when one is given: the driver calls `send` once the
// message's transaction committed (docs/operations.md, "Nothing acknowledged is lost"). Without
// the option Baileys behaves exactly as before.
//
// The script is idempotent (a patched file is left alone) and fails the install when the code it
// patches is not there (a Baileys upgrade changed it): the patch must be redone, never silently
// dropped. test/chat/baileys-receipt-patch.spec.ts checks the installed file and the behaviour.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

export const PATCH_MARK = 'inbox-patch:deferred-inbound-receipt:v1';
export const PATCHED_FILE = join(import.meta.dirname, '..', 'node_modules', '@whiskeysockets', 'baileys', 'lib', 'Socket', 'messages-recv.js');

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

/** The patched text of `source`; throws when the code to patch is not found exactly once. */
export function patchSource(source) {
  if (source.includes(PATCH_MARK)) return source;
  let patched = source;
  for (const [before, after] of [
    [RECEIPT_BEFORE, RECEIPT_AFTER],
    [ACK_BEFORE, ACK_AFTER],
  ]) {
    const at = patched.indexOf(before);
    if (at < 0 || patched.indexOf(before, at + 1) >= 0) {
      throw new Error(`patch-baileys: the receipt code of ${PATCHED_FILE} changed (Baileys upgraded?); redo scripts/patch-baileys.mjs for it`);
    }
    patched = patched.replace(before, after);
  }
  return patched;
}

function main() {
  if (!existsSync(PATCHED_FILE)) {
    // An install without Baileys (npm ci --omit of it) has nothing to patch.
    console.log('patch-baileys: @whiskeysockets/baileys is not installed; nothing to patch');
    return;
  }
  const source = readFileSync(PATCHED_FILE, 'utf8');
  const patched = patchSource(source);
  if (patched === source) return console.log('patch-baileys: already patched');
  writeFileSync(PATCHED_FILE, patched);
  console.log('patch-baileys: inbound receipts wait for the stored message');
}

if (process.argv[1] && import.meta.filename === process.argv[1]) main();
