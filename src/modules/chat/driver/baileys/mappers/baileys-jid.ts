import { jidNormalizedUser } from '@whiskeysockets/baileys';

/** A jid without its device part (`…:7@s.whatsapp.net` → `…@s.whatsapp.net`); null for none. */
export const normalisedJid = (jid: string | null | undefined): string | null => (jid ? jidNormalizedUser(jid) || null : null);
