// Types of scripts/patch-baileys.mjs for the tests that import it.
/** Marks a patched messages-recv.js. */
export declare const PATCH_MARK: string;
/** The installed Baileys file the patch changes. */
export declare const PATCHED_FILE: string;
/** The patched text of `source`; throws when the code to patch is not found exactly once. */
export declare function patchSource(source: string): string;
/** Marks a patched socket.js (the QR hold during a passkey check). */
export declare const QR_HOLD_MARK: string;
/** The installed Baileys file the QR-hold patch changes. */
export declare const QR_PATCHED_FILE: string;
/** The patched text of socket.js; throws as `patchSource` does. */
export declare function patchSocketSource(source: string): string;
