// Generated from the service’s OpenAPI document by openapi-typescript (npm run client:generate): do not edit.

export interface paths {
    "/api/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Whether the service and its dependencies (Postgres, Redis) are up */
        get: operations["HealthController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's keys, revoked ones included (never the key itself) */
        get: operations["ApiKeysController_list"];
        put?: never;
        /** Create a key (`read`, or `write`; `full` and `full_access` mean `write`), valid 365 days */
        post: operations["ApiKeysController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a key: every server refuses it from the next request on */
        delete: operations["ApiKeysController_revoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create an account; sets the session cookie and mails a verification link */
        post: operations["AuthController_register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sign in with email and password; sets the session cookie */
        post: operations["AuthController_login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Delete this session and clear the cookie */
        post: operations["AuthController_logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user and their workspaces */
        get: operations["AuthController_me"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a reset link (valid 1 h); the same answer whether or not the account exists */
        post: operations["AuthController_forgotPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Set a new password with a reset token; every session of the user is revoked */
        post: operations["AuthController_resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Confirm the email address with the token from the verification mail */
        post: operations["AuthController_verifyEmail"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/resend-verification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mail a new verification link to an unverified account; always `{ok:true}` */
        post: operations["AuthController_resendVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Sign-in methods the Console should offer */
        get: operations["AuthController_providers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/google/start": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Redirect to Google's sign-in (a browser navigation: the Console's "Continue with Google" link) */
        get: operations["GoogleSignInController_start"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/google/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Google's redirect back: signs in, or parks a pending sign-up for the Console's confirm page */
        get: operations["GoogleSignInController_callback"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/google/pending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The pending Google sign-up of this browser (`svc_google_pending` cookie), for the confirm page */
        get: operations["GoogleSignInController_pending"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/google/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept the terms: creates the account (or links the existing one with the same verified email) and signs in */
        post: operations["GoogleSignInController_confirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contact": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Website contact form (3 per minute per IP) */
        post: operations["ContactController_submit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspaces": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The signed-in user's workspaces with their role */
        get: operations["WorkspacesController_list"];
        put?: never;
        /** Create a workspace; the caller becomes its owner */
        post: operations["WorkspacesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/workspace": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The selected workspace (reachable without a subscription, so billing can be fixed) */
        get: operations["WorkspacesController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Rename the selected workspace */
        patch: operations["WorkspacesController_rename"];
        trace?: never;
    };
    "/api/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Members of the selected workspace */
        get: operations["MembersController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/members/{user_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Remove a member (409 for the last owner) */
        delete: operations["MembersController_remove"];
        options?: never;
        head?: never;
        /** Change a member's role (409 for the last owner) */
        patch: operations["MembersController_changeRole"];
        trace?: never;
    };
    "/api/invites": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Pending invites of the selected workspace */
        get: operations["InvitesController_list"];
        put?: never;
        /** Invite someone by email (the link is mailed, valid 7 days) */
        post: operations["InvitesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invites/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Accept an invite; the signed-in user's email must be the invited one */
        post: operations["InvitesController_accept"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/invites/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a pending invite */
        delete: operations["InvitesController_revoke"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Live event stream (Server-Sent Events)
         * @description Events of the caller's workspace: `message.created`, `message.updated`, `conversation.updated` (agents only receive those of conversations that are unassigned or assigned to them), `contact.created`, `contact.updated`, `contact.deleted`, `note.created`, `sync.progress`, `session.updated`; each with an `id:`. Reconnect with `Last-Event-ID` to receive what was missed in the last 10 minutes. A `: keep-alive` comment every 25 s. The stream ends when its credential does (key revoked or expired, logout, membership removed or role changed). See docs/events.md.
         */
        get: operations["EventsController_stream"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversations with the most recent messages first, filtered, in pages
         * @description Without parameters: the 30 most recent. Every filter combines with the others. When more pages exist the response has the header `X-Next-Cursor`: pass it as `before` for the next page (keep the other parameters). The pages are a snapshot walk: a conversation that existed when page 1 was read is listed once, where it stood then, however new messages reorder the list meanwhile (conversations created since are on a fresh page 1).
         */
        get: operations["ConversationsController_list"];
        put?: never;
        /**
         * Start a conversation with a phone number by sending it a first message, or without a message
         * @description `{phone, body}` (or `content`, an alias of `body`) finds or creates the conversation with that number and sends the text; a first message of another kind takes the fields of `POST /api/conversations/{id}/messages` (`type` a file kind with `media`, `location`, `contacts`), with the same checks. `{phone}` alone only finds or creates it: `message` is null, and a text or a template is sent later with `POST /api/conversations/{id}/messages`. Either way a connected channel is needed (409 otherwise): the conversation belongs to it.
         */
        post: operations["ConversationsController_start"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/counts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How many conversations each filter of the list finds, for tabs and badges
         * @description Of the conversations the caller sees (an agent: unassigned and their own). `status` counts every status; `assignee`, `unread` and `labels` count within `?status=` (default `open`). `mine` is 0 for an API key.
         */
        get: operations["ConversationsController_counts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One conversation */
        get: operations["ConversationsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Set the status: open, pending, snoozed (until `snoozed_until`) or closed
         * @description `snoozed` needs `snoozed_until`, a future time at most 365 days ahead; the conversation opens again by itself then, or with the customer's next message. Any other status clears `snoozed_until`. Whether the time is ahead is checked once the conversation is found.
         */
        patch: operations["ConversationsController_update"];
        trace?: never;
    };
    "/api/conversations/{id}/read": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Mark the conversation read (and send read receipts through the channel) */
        post: operations["ConversationsController_markRead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/typing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Show the contact "typing…" (`composing`), "recording audio…" (`recording`), or stop it (`paused`)
         * @description Body `{state?, duration_ms?}`: `state` defaults to `composing`; with `duration_ms` (1 to 30000) the indicator stops by itself then. WhatsApp clears it when a message arrives, or after about 25 s. Numbers linked by QR code only
         */
        post: operations["ConversationsController_typing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/assign": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Assign to a member, or unassign with `user_id: null` (owners and admins in the Console only) */
        post: operations["ConversationsController_assign"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Messages of a conversation, newest first, one page at a time */
        get: operations["MessagesController_list"];
        put?: never;
        /**
         * Send a text (`body`, or its alias `content`), a file (`type` image, document, video, audio, voice or sticker, `media`, `caption`), a place (`location`), contact cards (`contacts`), a template (`type: "template"`, `template_id`, `parameters`), an interactive message, or react to a message (`reaction`)
         * @description A template is stored and shown as its filled-in text; a Cloud API template goes out by name on a meta conversation, any other template as the filled-in text. Any message may quote one of the conversation's (`reply_to`). A voice note must be Ogg/Opus and a sticker WebP, checked on the file itself (uploaded, or fetched from `media.url` on the scan channel); files are held to WhatsApp's sizes (16 MB audio and video, 500 KB a sticker), and on a Cloud API number to the provider's types and sizes (images JPEG or PNG up to 5 MB, stickers up to 100 KB, 500 KB animated; see each type). Interactive messages need a Cloud API number. A voice note's, an Ogg/Opus file's and an MP4 video's playing time is read from the file (`duration_s`). A reaction (`{reaction: {message_id, emoji}}`) stores no message: the answer (201) is the message reacted to, its `reactions` holding this number's.
         */
        post: operations["MessagesController_send"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/messages/{message_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a message this number sent for everyone
         * @description Where the channel allows it (the scan channel; the Cloud API has no delete), within 48 hours of sending it (WhatsApp allows about 60). The message stays in the inbox with `deleted: true` and its content; a repeat answers the same without asking the channel again.
         */
        delete: operations["MessagesController_revoke"];
        options?: never;
        head?: never;
        /**
         * Edit a text this number sent
         * @description The new text (`body`, or `content`), within 15 minutes of sending it (WhatsApp's window), where the channel allows it (the scan channel). The message answers `edited: true` with its new `content`.
         */
        patch: operations["MessagesController_edit"];
        trace?: never;
    };
    "/api/contacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The 500 newest contacts, optionally searched */
        get: operations["ContactsController_list"];
        put?: never;
        /** Create a contact */
        post: operations["ContactsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One contact */
        get: operations["ContactsController_get"];
        put?: never;
        post?: never;
        /** Delete a contact (its conversations stay) */
        delete: operations["ContactsController_delete"];
        options?: never;
        head?: never;
        /** Change a contact's phone or name */
        patch: operations["ContactsController_update"];
        trace?: never;
    };
    "/api/inbox/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Messages per day, open and unassigned conversations (the Console overview)
         * @description Agents count only the conversations they see (unassigned and their own).
         */
        get: operations["InboxStatsController_read"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Search messages, contacts and private notes
         * @description Words are matched whole and case-insensitively (no stemming: chats mix languages), every word must occur, and the last one also matches as the start of a word when it has 3 or more characters (search as you type). Messages match by text, caption or file name (deleted ones never), notes by body, contacts by name or, when `q` is a phone number (digits, spaces, `+-().`, 3 digits or more), by those digits anywhere in the number. Results are ranked (ts_rank_cd), newer first among equals, and paged with `next_cursor`. Agents find only what they see: messages and notes of unassigned conversations and their own; every member finds every contact.
         */
        get: operations["SearchController_find"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/notes/mentions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The 100 newest notes that mention the signed-in member, in conversations they see */
        get: operations["NotesController_mentions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/notes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The conversation's newest 500 private notes, oldest first */
        get: operations["NotesController_list"];
        put?: never;
        /**
         * Add a private note: seen by the team only, never sent to the chat nor to a webhook
         * @description `body` is trimmed; `mentions` name members whose Mentions view lists the note. Live event `note.created`.
         */
        post: operations["NotesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/notes/{noteId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a note: its author, an owner or admin; an API key the notes written with a key */
        delete: operations["NotesController_delete"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's labels, by name */
        get: operations["LabelsController_list"];
        put?: never;
        /** Create a label (owners and admins in the Console) */
        post: operations["LabelsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/labels/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a label; it comes off every conversation and contact that had it */
        delete: operations["LabelsController_delete"];
        options?: never;
        head?: never;
        /** Rename or recolour a label */
        patch: operations["LabelsController_update"];
        trace?: never;
    };
    "/api/conversations/{id}/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Put a label on a conversation (no change when it has it); answers the conversation */
        post: operations["LabellingController_labelConversation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/conversations/{id}/labels/{labelId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Take a label off a conversation (no change when it does not have it); answers the conversation */
        delete: operations["LabellingController_unlabelConversation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/labels": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Put a label on a contact (no change when it has it); answers the contact */
        post: operations["LabellingController_labelContact"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/contacts/{id}/labels/{labelId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Take a label off a contact (no change when it does not have it); answers the contact */
        delete: operations["LabellingController_unlabelContact"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The number's pace, caps and what it used of them in the last 24 hours
         * @description Every new message of a number linked by QR code goes through its outbound queue: never closer than `min_gap_ms` plus a random part of `jitter_ms` to the previous send, at most `burst` sends at that gap, then `per_minute`. The Cloud API keeps its own limits
         */
        get: operations["SendingController_limits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change the number's pace and caps (owners and admins in the Console): any subset of the fields, each within its bounds
         * @description Every new message of a number linked by QR code goes through its outbound queue: never closer than `min_gap_ms` plus a random part of `jitter_ms` to the previous send, at most `burst` sends at that gap, then `per_minute`. The Cloud API keeps its own limits. Fields left out keep their value (`{}` changes nothing); a workspace that never saved any has the service's defaults (`defaults`).
         */
        patch: operations["SendingController_update"];
        trace?: never;
    };
    "/api/chat/queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The number's outbound queue: sends waiting for their turn, next first
         * @description Each waiting message is `pending`; it moves to `sent` (or `failed`) at its turn. Cloud API sends the provider asked to retry later wait here too
         */
        get: operations["SendingController_list"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/media/{workspace}/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A stored media file of the caller's workspace (a message's `media_url`)
         * @description The stored bytes. The content type is the sender's claim, so only types a browser can merely display or play are served as themselves and inline (by default): JPEG, PNG, GIF, WebP, AVIF and BMP images; Ogg, Opus, MP3, MP4/AAC, AMR, WAV and WebM audio; MP4, 3GPP, WebM, Ogg and QuickTime video (matched without parameters and case). A document of such a type comes as `Content-Disposition: attachment` with its file name. Anything else is an attachment, named by the sender's file name or else by the file's own name, with its own type (a PDF is `application/pdf`), except types a browser runs (HTML, SVG and other XML, scripts) and malformed ones, which are `application/octet-stream`; the message's `mime_type` keeps the type the sender gave. Every answer, errors included, carries `X-Content-Type-Options: nosniff`, `Cross-Origin-Resource-Policy: same-origin` and a Content Security Policy that sandboxes the file when opened as a page.
         */
        get: operations["MediaController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/connect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start the QR-linked session (a QR code becomes available), or reconnect a linked number; no body */
        post: operations["ChatController_connect"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/pairing-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link by a code typed on the phone instead of a QR code (Linked devices → Link a device → Link with phone number instead)
         * @description Starts the session as connect does and asks WhatsApp for a pairing code for `phone`; the status says `state: pairing_code` until the phone entered it, then links exactly as after a scan. Asking again gives a new code. No QR code is shown meanwhile
         */
        post: operations["ChatController_pairingCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/stop": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop the session and keep the link: the socket closes and nothing reconnects until connect (or restart); no body
         * @description The number stays linked and its keys are kept. A session that was waiting for a scan or a pairing code drops the keys made for it
         */
        post: operations["ChatController_stop"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/restart": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Stop, then connect again: a linked number reconnects on its keys without a QR code; one not linked shows a new QR code; no body */
        post: operations["ChatController_restart"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/qr": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The QR code to scan (poll every few seconds while `pending`) */
        get: operations["ChatController_qr"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The session state (flags and `state` by name, `since`) plus the history sync; poll until `logged_in` and `connected` */
        get: operations["ChatController_status"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/disconnect": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Unlink the number: logs the companion device out and deletes its keys; no body */
        post: operations["ChatController_disconnect"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/passkey/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A one-time link that opens WhatsApp Web for the passkey extension (while the status says passkey_required or passkey_assertion); no body
         * @description Each call makes a new link and invalidates the previous one
         */
        post: operations["PasskeyController_link"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/passkey/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm the code the phone shows (status state passkey_confirmation): WhatsApp then pairs the device
         * @description With `code`, it must equal the status code; a different one ends the ceremony without a link
         */
        post: operations["PasskeyController_confirm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/passkey/{workspace_id}/challenge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** For the passkey extension: WhatsApp's WebAuthn request options (the status moves to passkey_assertion) */
        get: operations["PasskeyController_challenge"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/passkey/{workspace_id}/assertion": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * For the passkey extension: the WebAuthn assertion (PublicKeyCredential.toJSON()), checked and sent on to WhatsApp; uses the link up
         * @description Checked before it goes: unpadded base64url fields, `id` equal to `rawId`, client data of type `webauthn.get` with WhatsApp's challenge and the origin `https://web.whatsapp.com` (400, the link stays usable). WhatsApp refusing it is 400 too, and ends the ceremony
         */
        post: operations["PasskeyController_assertion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/proxy": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The egress proxy the number's socket and media use: its own, the service's default (WA_PROXY_URL), or none */
        get: operations["ScanProxyController_get"];
        /** Route the number's socket and media through a proxy (HTTP CONNECT or SOCKS5). Applies from the next connection (POST /api/chat/connect, a restart or a reconnect) and to every media download from now on */
        put: operations["ScanProxyController_put"];
        post?: never;
        /** Remove the number's own proxy: WA_PROXY_URL applies again if set, else it connects directly (from the next connection) */
        delete: operations["ScanProxyController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/chat/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether a phone number is on WhatsApp, asked through the linked number
         * @description Answers from this workspace's earlier check of the number while it is fresh (`cached: true`): 7 days for a number on WhatsApp, 6 hours for one that is not; otherwise asks WhatsApp now and stores the answer. Checks asked of WhatsApp are limited to 30 per minute per workspace (a fixed minute from the first of them); cached answers do not count, nor does the check the inbox makes before a conversation's first message. A live check needs the number connected; a cached answer does not
         */
        get: operations["NumberCheckController_check"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Outbox figures: pending now, delivered and failed in the last 24 hours, age of the oldest pending delivery */
        get: operations["WebhooksController_stats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's signing secret (`whsec_…`), created with the workspace */
        get: operations["WebhooksController_secret"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/secret/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new signing secret; the previous one also signs `webhook-signature` for 24 hours */
        post: operations["WebhooksController_rotate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's webhooks (at most 10), oldest first */
        get: operations["WebhooksController_list"];
        put?: never;
        /** Add a webhook */
        post: operations["WebhooksController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook */
        get: operations["WebhooksController_get"];
        put?: never;
        post?: never;
        /** Delete a webhook with its deliveries and their log */
        delete: operations["WebhooksController_remove"];
        options?: never;
        head?: never;
        /** Change url, events or enabled; enabling clears a disabled reason, disabling fails what waits */
        patch: operations["WebhooksController_update"];
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The last 100 delivery attempts, newest first */
        get: operations["WebhooksController_log"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a delivery again now, with the same `webhook-id`; answers the attempt (whatever the endpoint answered) */
        post: operations["WebhooksController_retry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a signed `webhook.test` event now; answers the attempt (whatever the endpoint answered) */
        post: operations["WebhooksController_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The 500 newest templates */
        get: operations["TemplatesController_list"];
        put?: never;
        /** Create a template: local on a scan workspace, submitted to the provider on a Cloud API workspace */
        post: operations["TemplatesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Fetch the provider's first page of templates (up to 100) and store them; answers the templates synced */
        post: operations["TemplatesController_sync"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a template (a provider's template is deleted at the provider too) */
        delete: operations["TemplatesController_delete"];
        options?: never;
        head?: never;
        /** Change a local template (name, language, category, body) */
        patch: operations["TemplatesController_update"];
        trace?: never;
    };
    "/api/automations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The 500 newest automations */
        get: operations["AutomationsController_list"];
        put?: never;
        /** Create an automation: a trigger, conditions (all or any) and actions run in order */
        post: operations["AutomationsController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/automations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an automation */
        delete: operations["AutomationsController_delete"];
        options?: never;
        head?: never;
        /** Change an automation: the fields present replace the stored ones (conditions and actions as whole lists) */
        patch: operations["AutomationsController_update"];
        trace?: never;
    };
    "/api/knowledge": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The 500 newest knowledge articles */
        get: operations["KnowledgeController_list"];
        put?: never;
        /** Create a knowledge article */
        post: operations["KnowledgeController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Full-text search: at most 10 articles, best first (empty when nothing matches) */
        get: operations["KnowledgeController_search"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/knowledge/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete an article */
        delete: operations["KnowledgeController_delete"];
        options?: never;
        head?: never;
        /** Change an article's title or body */
        patch: operations["KnowledgeController_update"];
        trace?: never;
    };
    "/api/quick-replies": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's quick replies, by shortcut */
        get: operations["QuickRepliesController_list"];
        put?: never;
        /** Create a quick reply (owners and admins in the Console) */
        post: operations["QuickRepliesController_create"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/quick-replies/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Delete a quick reply */
        delete: operations["QuickRepliesController_delete"];
        options?: never;
        head?: never;
        /** Change a quick reply */
        patch: operations["QuickRepliesController_update"];
        trace?: never;
    };
    "/api/quick-replies/{id}/render": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A quick reply's text for a conversation, placeholders filled in (nothing is sent)
         * @description `{{contact.name}}`, `{{contact.phone}}` (`+` and digits), `{{agent.name}}` (the signed-in member; empty for an API key), `{{conversation.name}}`; a value that is not known is empty, an unknown placeholder stays as typed.
         */
        post: operations["QuickRepliesController_render"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/meta/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The workspace's Cloud API number; the token is never returned (`token_set`) */
        get: operations["MetaSettingsController_get"];
        /** Connect (or change) the workspace's Cloud API number. Checked with the provider before saving: the token reads the number, the number belongs to the WABA, and the platform's app is subscribed to the WABA's webhooks */
        put: operations["MetaSettingsController_put"];
        post?: never;
        /** Disconnect the number from this workspace (the app stays subscribed to the WABA at the provider) */
        delete: operations["MetaSettingsController_remove"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/meta/signup/config": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the Console needs to open Embedded Signup: the platform's app id, configuration id and versions */
        get: operations["MetaSignupController_config"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/meta/signup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Finish Embedded Signup: exchanges the code for a business token, subscribes the app to the WABA, registers the number (with a new two-step PIN, kept encrypted) and saves the settings */
        post: operations["MetaSignupController_signup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/meta/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The provider's verification of the callback URL: answers `hub.challenge` verbatim */
        get: operations["MetaCallbackController_verify"];
        put?: never;
        /** The provider's callback. The signature (HMAC-SHA256 of the raw body with the app secret) is checked before anything is parsed; the payload is stored, then processed in the background (messages, statuses, templates) and forwarded as `meta.chat` to each workspace it concerns, each getting only its own part: the exact bytes when the whole callback is the workspace's, else `{"object", "entry": [its entries]}` (each entry's bytes as sent, an entry of several workspaces cut to the workspace's `changes`). Entries for numbers no workspace has reach nobody. A retry of the same bytes changes nothing */
        post: operations["MetaCallbackController_receive"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics of this process and cluster-wide gauges (text exposition format)
         * @description Public unless `METRICS_TOKEN` is set; then `Authorization: Bearer <METRICS_TOKEN>` is required. Series and their meaning: docs/operations.md. With `METRICS_PORT` set (how worker processes are scraped) the same is served on that port only, and this route answers 404.
         */
        get: operations["MetricsController_get"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reports/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversations opened and closed, first-response and resolution times, per day and per agent
         * @description Owners, admins and API keys (read keys too); agents are refused. An opening is a conversation created, or one leaving `closed` (an inbound message reopening it, or a status change); a first response is the first message a person sent (Console or API: not automations, not the phone, not history) after the opening’s first inbound message; resolution is opening to closing. Events count on the day (in `tz`) they happened.
         */
        get: operations["ReportsController_conversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "scan.chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `scan.chat`: every new message someone sends to the QR-linked number, as soon as it is stored (with media, once its file is)
         * @description A new message someone sent to the QR-linked number (the contract’s `scan.chat`; `event` is `message.inbound`). Verify both signatures against the raw body before parsing it (docs/webhooks.md).
         */
        post: operations["webhook_scan_chat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "meta.chat": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `meta.chat`: each Cloud API callback for the workspace’s numbers, forwarded as the provider sent it
         * @description A Cloud API callback, forwarded exactly as the provider sent it (`object`, `entry[]`). Verify both signatures against the raw body before parsing it (docs/webhooks.md).
         */
        post: operations["webhook_meta_chat"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `message.status`: a message moved to sent, delivered, read or failed (with the channel’s reason), or a voice note, audio or video was played
         * @description An outbound message moved to sent, delivered, read, played or failed. Verify both signatures against the raw body before parsing it (docs/webhooks.md).
         */
        post: operations["webhook_message_status"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.sent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `message.sent`: an outbound message was stored: sent through the API, the Console, an automation, or from the linked phone itself
         * @description A new outbound message, whoever wrote it. Verify both signatures against the raw body before parsing it (docs/webhooks.md).
         */
        post: operations["webhook_message_sent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `message.updated`: a message was edited: its new text, the text before and who edited it
         * @description A message was edited. Verify both signatures against the raw body before parsing it (docs/webhooks.md).
         */
        post: operations["webhook_message_updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `message.deleted`: a message was deleted for everyone, by its sender or through the API
         * @description A message was revoked (deleted for everyone). Verify both signatures against the raw body before parsing it (docs/webhooks.md).
         */
        post: operations["webhook_message_deleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "message.reaction": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `message.reaction`: someone reacted to a message, changed the reaction or took it back
         * @description A reaction was added to a message or taken back. Verify both signatures against the raw body before parsing it (docs/webhooks.md).
         */
        post: operations["webhook_message_reaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "conversation.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `conversation.updated`: a conversation’s status, assignee or labels changed
         * @description A conversation’s status, assignee or labels changed (only when something really changed). Verify both signatures against the raw body before parsing it (docs/webhooks.md).
         */
        post: operations["webhook_conversation_updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "session.status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `session.status`: the QR-linked number’s state changed (connected, reconnecting, logged out, passkey required, failed, stopped, …), or the Cloud API number was disconnected or its token refused
         * @description The number’s connection state changed. Verify both signatures against the raw body before parsing it (docs/webhooks.md).
         */
        post: operations["webhook_session_status"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * `webhook.test`: a signed test event, sent to one endpoint by `POST /api/webhooks/{id}/test` and never retried
         * @description Sent by `POST /api/webhooks/{id}/test` to check the endpoint; never retried. Verify both signatures against the raw body before parsing it (docs/webhooks.md).
         */
        post: operations["webhook_webhook_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        HealthChecks: {
            /** @enum {string} */
            database: "up" | "down";
            /** @enum {string} */
            redis: "up" | "down";
        };
        HealthReport: {
            /**
             * @description `degraded` (with status 503) while a check is down
             * @enum {string}
             */
            status: "ok" | "degraded";
            checks: components["schemas"]["HealthChecks"];
        };
        CreateApiKeyDto: {
            /** @example CRM sync */
            name: string;
            /**
             * @description `full` and `full_access` are accepted as aliases of `write` and stored as `write`. Left out: `read`, as the CLI's `issue-key` does.
             * @default read
             * @enum {string}
             */
            scope?: "read" | "write" | "full" | "full_access";
        };
        CreatedApiKeyResponse: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The workspace the key acts in
             */
            workspace_id: string;
            name: string;
            /** @enum {string} */
            scope: "read" | "write";
            /**
             * @description The first characters of the key, to tell keys apart.
             * @example pk_live_1a2b3c4d
             */
            prefix: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description 365 days after creation.
             */
            expires_at: string;
            /**
             * Format: date-time
             * @description Kept to the minute.
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
            /**
             * @description Shown this once.
             * @example pk_live_0123456789abcdef0123456789abcdef0123456789abcdef
             */
            key: string;
        };
        ApiKeyResponse: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The workspace the key acts in
             */
            workspace_id: string;
            name: string;
            /** @enum {string} */
            scope: "read" | "write";
            /**
             * @description The first characters of the key, to tell keys apart.
             * @example pk_live_1a2b3c4d
             */
            prefix: string;
            /** Format: date-time */
            created_at: string;
            /**
             * Format: date-time
             * @description 365 days after creation.
             */
            expires_at: string;
            /**
             * Format: date-time
             * @description Kept to the minute.
             */
            last_used_at: string | null;
            /** Format: date-time */
            revoked_at: string | null;
        };
        OkResponse: {
            /** @example true */
            ok: boolean;
        };
        RegisterDto: {
            /**
             * Format: email
             * @description Compared and stored lower-cased
             * @example ada@example.com
             */
            email: string;
            /** @example correct horse battery staple */
            password: string;
            /** @example Ada Lovelace */
            name: string;
        };
        UserResponse: {
            /** Format: uuid */
            id: string;
            email: string;
            name: string;
            /** @description The address was confirmed through the emailed link */
            email_verified: boolean;
            /** Format: date-time */
            created_at: string;
        };
        RegisteredResponse: {
            user: components["schemas"]["UserResponse"];
        };
        LoginDto: {
            /**
             * Format: email
             * @description Compared and stored lower-cased
             * @example ada@example.com
             */
            email: string;
            password: string;
        };
        WorkspaceResponse: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @enum {string} */
            subscription_status: "none" | "trialing" | "active" | "past_due" | "canceled";
            /** Format: date-time */
            created_at: string;
            /**
             * @description The caller's role in the workspace (`agent` for an API key, which acts as an agent)
             * @enum {string}
             */
            role: "owner" | "admin" | "agent";
        };
        SignedInResponse: {
            user: components["schemas"]["UserResponse"];
            workspaces: components["schemas"]["WorkspaceResponse"][];
        };
        EmailDto: {
            /**
             * Format: email
             * @description Compared and stored lower-cased
             * @example ada@example.com
             */
            email: string;
        };
        ResetPasswordDto: {
            /** @description The token from the emailed link */
            token: string;
            password: string;
        };
        TokenDto: {
            /** @description The token from the emailed link */
            token: string;
        };
        ProvidersResponse: {
            /** @example true */
            password: boolean;
            /** @description Google sign-in is configured */
            google: boolean;
        };
        GooglePendingResponse: {
            /**
             * @description The Google account’s address (lower-cased): the new account’s email
             * @example ada@gmail.com
             */
            email: string;
            /**
             * @description The name on the Google account
             * @example Ada Lovelace
             */
            name: string;
        };
        GoogleConfirmDto: {
            /**
             * @example true
             * @enum {boolean}
             */
            accept_terms: true;
        };
        ContactDto: {
            name: string;
            /**
             * Format: email
             * @example visitor@example.com
             */
            email: string;
            message: string;
        };
        WorkspaceNameDto: {
            /** @example Acme support */
            name: string;
        };
        MemberResponse: {
            /** Format: uuid */
            user_id: string;
            email: string;
            name: string;
            /** @enum {string} */
            role: "owner" | "admin" | "agent";
            /** Format: date-time */
            joined_at: string;
        };
        ChangeRoleDto: {
            /**
             * @description Only an owner may make someone an owner or change an owner
             * @enum {string}
             */
            role: "owner" | "admin" | "agent";
        };
        CreateInviteDto: {
            /**
             * Format: email
             * @description Stored lower-cased
             * @example colleague@example.com
             */
            email: string;
            /**
             * @description Only an owner may invite an owner
             * @enum {string}
             */
            role: "owner" | "admin" | "agent";
        };
        InviteResponse: {
            /** Format: uuid */
            id: string;
            email: string;
            /** @enum {string} */
            role: "owner" | "admin" | "agent";
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            expires_at: string;
        };
        AcceptInviteDto: {
            /** @description The token from the invite link */
            token: string;
        };
        AcceptInviteResponse: {
            /** @description The joined workspace, in the one workspace shape */
            workspace: components["schemas"]["WorkspaceResponse"];
        };
        ConversationResponse: {
            /** Format: uuid */
            id: string;
            /**
             * @description `scan` (QR-linked number) or `meta` (Cloud API number)
             * @example scan
             */
            channel: string;
            /**
             * @description `@s.whatsapp.net` or `@lid` for a person, `@g.us` for a group
             * @example 4915123456789@s.whatsapp.net
             */
            chat_jid: string;
            /** @description Contact or group name, when known; may be empty */
            chat_name: string;
            /**
             * @description Digits of the phone number of a one-to-one chat, when known
             * @example 4915123456789
             */
            chat_phone: string;
            is_group: boolean;
            /**
             * Format: uuid
             * @description null for groups
             */
            contact_id: string | null;
            /**
             * Format: uuid
             * @description A member's user id, or null when unassigned
             */
            assignee_id: string | null;
            /** @enum {string} */
            status: "open" | "pending" | "snoozed" | "closed";
            /**
             * Format: date-time
             * @description When a `snoozed` conversation opens again by itself; null for every other status
             */
            snoozed_until: string | null;
            /** @description Ids of the workspace labels on the conversation (`GET /api/labels` names them) */
            label_ids: string[];
            /** @description Inbound messages since the conversation was last marked read */
            unread_count: number;
            /** Format: date-time */
            last_message_at: string;
            /** @description Start of the latest message (text, or caption of media) */
            last_message_preview: string;
        };
        StatusCounts: {
            open: number;
            pending: number;
            snoozed: number;
            closed: number;
        };
        AssigneeCounts: {
            /** @description Assigned to the signed-in user (0 for an API key: a key is nobody) */
            mine: number;
            /** @description Assigned to nobody */
            unassigned: number;
            /** @description All the caller sees */
            all: number;
        };
        LabelCount: {
            /** Format: uuid */
            label_id: string;
            count: number;
        };
        ConversationCountsResponse: {
            /** @description Per status, whatever `?status=` says */
            status: components["schemas"]["StatusCounts"];
            /** @description Within `?status=` (default `open`) */
            assignee: components["schemas"]["AssigneeCounts"];
            /** @description Within `?status=`: conversations with unread inbound messages */
            unread: number;
            /** @description Within `?status=`: per label on at least one conversation, most used first */
            labels: components["schemas"]["LabelCount"][];
        };
        MediaDto: {
            /**
             * @description http(s) address the channel fetches the file from
             * @example https://example.com/photo.png
             */
            url?: string;
            /**
             * @description the file itself, base64 (instead of url; needs `mime_type`)
             * @example iVBORw0KGgo=
             */
            data_base64?: string;
            /**
             * @description the file's type, of the kind's family (`image/*`, `video/*`, `audio/*`); a voice note `audio/ogg; codecs=opus`, a sticker `image/webp`
             * @example image/png
             */
            mime_type?: string;
            /** @description a document's name as the recipient sees it */
            file_name?: string;
        } & (unknown | unknown);
        LocationDto: {
            /** @example 52.520008 */
            latitude: number;
            /** @example 13.404954 */
            longitude: number;
            /** @example Brandenburg Gate */
            name?: string;
            /** @example Pariser Platz, 10117 Berlin */
            address?: string;
            /**
             * @description a link to the place's page (http or https)
             * @example https://example.com/visit
             */
            url?: string;
        };
        ContactCardDto: {
            /** @example Ada Lovelace */
            name: string;
            /**
             * @description phone numbers as `phone` of a new conversation takes them (E.164, `+` and separators allowed); stored as digits
             * @example [
             *       "+4915123456789"
             *     ]
             */
            phones: string[];
        };
        StartConversationDto: ({
            /**
             * @description E.164 digits with or without `+`; spaces, dots, dashes and brackets are also accepted (`+49 (151) 234-567`, `0049…`); anything else (`null` too) is 400 `invalid phone number`
             * @example +15551234567
             */
            phone: string;
            /**
             * @description the first message's kind, as on `POST /api/conversations/:id/messages` (default `text` when `body` is given); templates, reactions and replies need the conversation first
             * @enum {string}
             */
            type?: "text" | "image" | "document" | "video" | "audio" | "voice" | "sticker" | "location" | "contacts";
            /** @description the first message's text, at most 65,536 characters. Leave out `body`, `content` and `type` to start the conversation without a message (`message` is then null; send a text or a template later) */
            body?: string;
            /** @description alias of `body`; both only with the same text, else 400 `body and content differ: they are the same field (content is an alias of body), send one of them` */
            content?: string;
            /** @description with a file `type`: the file, by address or as base64 */
            media?: components["schemas"]["MediaDto"];
            /** @description the text shown with an image, a video or a document */
            caption?: string;
            /** @description with `type: "location"`: the place */
            location?: components["schemas"]["LocationDto"];
            /** @description with `type: "contacts"`: the cards */
            contacts?: components["schemas"]["ContactCardDto"][];
        } & {
            body?: string;
            content?: string;
        }) & (unknown | ({
            /** @enum {string} */
            type?: "text";
        } | unknown | unknown) | {
            /** @enum {string} */
            type: "image";
            media: {
                mime_type?: string;
            };
        } | {
            /** @enum {string} */
            type: "document";
        } | {
            /** @enum {string} */
            type: "video";
            media: {
                mime_type?: string;
            };
        } | {
            /** @enum {string} */
            type: "audio";
            media: {
                mime_type?: string;
            };
        } | {
            /** @enum {string} */
            type: "voice";
            media: {
                mime_type?: string;
            };
        } | {
            /** @enum {string} */
            type: "sticker";
            media: {
                /** @enum {string} */
                mime_type?: "image/webp";
            };
        } | {
            /** @enum {string} */
            type: "location";
        } | {
            /** @enum {string} */
            type: "contacts";
        });
        LocationResponse: {
            /** @example 52.520008 */
            latitude: number;
            /** @example 13.404954 */
            longitude: number;
            /**
             * @description The place's name, or empty
             * @example Alexanderplatz
             */
            name: string;
            /**
             * @description Its address, or empty
             * @example 10178 Berlin
             */
            address: string;
            /**
             * @description A link the sender attached, or empty
             * @example https://maps.example.com/?q=52.520008,13.404954
             */
            url: string;
        };
        ContactCardResponse: {
            /** @example Ada Lovelace */
            name: string;
            /**
             * @description Phone numbers, digits only
             * @example [
             *       "4915123456789"
             *     ]
             */
            phones: string[];
            /**
             * @description The vCard as sent
             * @example BEGIN:VCARD
             *     VERSION:3.0
             *     FN:Ada Lovelace
             *     TEL;type=CELL;waid=4915123456789:+4915123456789
             *     END:VCARD
             */
            vcard: string;
        };
        PollResponse: {
            /** @example Which day suits you? */
            question: string;
            /**
             * @example [
             *       "Monday",
             *       "Tuesday"
             *     ]
             */
            options: string[];
            /**
             * @description Whether more than one option may be chosen
             * @example false
             */
            multiple: boolean;
        };
        ReplyChoiceResponse: {
            /**
             * @description The id the business gave the button or row (a quick reply: its payload)
             * @example confirm
             */
            id: string;
            /**
             * @description What the person saw and tapped (also the message's `content`)
             * @example Yes, confirm
             */
            title: string;
        };
        ReactionResponse: {
            /** @example 👍 */
            emoji: string;
            /**
             * @description Who reacted (this number for our own reactions)
             * @example 4915123456789@s.whatsapp.net
             */
            sender_jid: string;
        };
        MessageResponse: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            conversation_id: string;
            /** @enum {string} */
            direction: "inbound" | "outbound";
            /**
             * @description The channel's message id (deduplicate on it); null until an outbound message is sent
             * @example 3EB0C767D26A1D8F4F21
             */
            chat_message_id: string | null;
            /** @example 4915123456789@s.whatsapp.net */
            sender_jid: string;
            /**
             * @description May be empty
             * @example Ada
             */
            sender_name: string;
            /**
             * @description The coarse class: `image` for images and stickers, `document` for documents, audio, voice notes and video, `text` for the rest (see `kind`)
             * @example document
             * @enum {string}
             */
            message_type: "text" | "image" | "document";
            /**
             * @description What the message is, precisely
             * @example voice
             * @enum {string}
             */
            kind: "text" | "image" | "document" | "video" | "audio" | "voice" | "sticker" | "location" | "contacts" | "poll" | "unsupported";
            /**
             * @description Text, or the caption of media; for a location, contact cards, a poll or an unsupported message a readable rendering (`[a call]`)
             * @example
             */
            content: string;
            /**
             * @description Path `/api/media/<workspace>/<file>` of stored media, or empty
             * @example /api/media/6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d/8d3e5f7a9b1c2d4e.ogg
             */
            media_url: string;
            /**
             * @description Media MIME type, or empty
             * @example audio/ogg; codecs=opus
             */
            mime_type: string;
            /**
             * @description Document file name, or empty
             * @example
             */
            file_name: string;
            /**
             * @description Media size in bytes, or 0
             * @example 18342
             */
            file_size: number;
            /**
             * @description Playing time of audio, voice notes and video in whole seconds (a 7-second voice note: 7), as the channel gave it or read from the file; 0 for other kinds or when unknown
             * @example 7
             */
            duration_s: number;
            /**
             * @description The `chat_message_id` of the message this one replies to, or empty
             * @example 3EB0A1B2C3D4E5F60718
             */
            quoted_message_id: string;
            /**
             * Format: uuid
             * @description Our `id` of the quoted message, when the inbox holds it
             * @example 2a7c9e4f-1b3d-4e5f-8a6b-7c8d9e0f1a2b
             */
            quoted_id: string | null;
            /**
             * @description Jids the message mentions (groups)
             * @example [
             *       "4915198765432@s.whatsapp.net"
             *     ]
             */
            mentions: string[];
            /**
             * @description A `location` message's place (a live location: its first position); null for other kinds
             * @example {
             *       "latitude": 52.520008,
             *       "longitude": 13.404954,
             *       "name": "Alexanderplatz",
             *       "address": "10178 Berlin",
             *       "url": ""
             *     }
             */
            location: components["schemas"]["LocationResponse"] | null;
            /**
             * @description A `contacts` message's cards; null for other kinds
             * @example [
             *       {
             *         "name": "Ada Lovelace",
             *         "phones": [
             *           "4915123456789"
             *         ],
             *         "vcard": "BEGIN:VCARD\nVERSION:3.0\nFN:Ada Lovelace\nTEL;type=CELL;waid=4915123456789:+4915123456789\nEND:VCARD"
             *       }
             *     ]
             */
            contacts: components["schemas"]["ContactCardResponse"][] | null;
            /**
             * @description A `poll` message's question and options; null for other kinds
             * @example {
             *       "question": "Which day suits you?",
             *       "options": [
             *         "Monday",
             *         "Tuesday"
             *       ],
             *       "multiple": false
             *     }
             */
            poll: components["schemas"]["PollResponse"] | null;
            /**
             * @description On a tapped reply button, list row or quick reply (a `text` message whose content is its title): what was tapped
             * @example null
             */
            reply: components["schemas"]["ReplyChoiceResponse"] | null;
            /**
             * @description One per person who reacted: their current emoji
             * @example [
             *       {
             *         "emoji": "👍",
             *         "sender_jid": "4915123456789@s.whatsapp.net"
             *       }
             *     ]
             */
            reactions: components["schemas"]["ReactionResponse"][];
            /**
             * @description Its sender edited it (content is the new text)
             * @example false
             */
            edited: boolean;
            /**
             * @description Its sender deleted it for everyone; its content is kept for the workspace
             * @example false
             */
            deleted: boolean;
            /**
             * @description Only moves forward: pending → sent → delivered → read, or failed
             * @example delivered
             * @enum {string}
             */
            status: "pending" | "sent" | "delivered" | "read" | "failed";
            /**
             * @description Why the message failed
             * @example null
             */
            error: string | null;
            /**
             * Format: date-time
             * @example 2026-01-15T09:30:00.000Z
             */
            timestamp: string;
            /**
             * @description The message's place in its conversation: 1, 2, 3, … in the order the service stored them, strictly increasing and without gaps (a missing number is a message you have not seen: fetch it with `GET /api/conversations/{id}/messages?after_seq=`). The same number on the live events and the webhook events of the message.
             * @example 42
             */
            seq: number;
            /**
             * @description Only on a send's answer while the message waits in its number's outbound queue (`status` `pending`): its 1-based place in the queue (1: next). The message moves to `sent` at its turn (`message.updated`, `message.status`); `GET /api/chat/queue` gives the current places
             * @example 3
             */
            queue_position?: number;
        };
        StartedConversationResponse: {
            conversation: components["schemas"]["ConversationResponse"];
            /** @description The first message as stored; null when the request had no `body`/`content` (the conversation was only found or created) */
            message: components["schemas"]["MessageResponse"] | null;
        };
        UpdateConversationDto: {
            /**
             * @description `pending`: waiting on the customer; `snoozed`: out of sight until `snoozed_until` or their next message
             * @enum {string}
             */
            status: "open" | "pending" | "snoozed" | "closed";
            /**
             * Format: date-time
             * @description With `status: snoozed` only (required then): when the conversation opens again by itself, in the future and at most 365 days ahead (RFC 3339 with a zone). Any other status clears it
             */
            snoozed_until?: string;
        } & ({
            /** @enum {unknown} */
            status?: "open" | "pending" | "closed";
        } | {
            /** @enum {unknown} */
            status: "snoozed";
        });
        TypingDto: {
            /**
             * @description `composing` (typing…), `recording` (recording audio…), `paused` (stop)
             * @default composing
             * @enum {string}
             */
            state?: "composing" | "recording" | "paused";
            /** @description Stop by itself after this many ms */
            duration_ms?: number;
        };
        AssignConversationDto: {
            /**
             * Format: uuid
             * @description a member's user id, or null to unassign
             */
            user_id: string | null;
        };
        MessagePageResponse: {
            /** @description Newest first */
            messages: components["schemas"]["MessageResponse"][];
            /** @description Pass as `?before=` for the next (older) page; null on the last page */
            next_cursor: string | null;
        };
        InteractiveButtonDto: {
            /**
             * @description comes back as the reply's id when the person taps the button
             * @example confirm
             */
            id: string;
            /**
             * @description the label, unique within the message
             * @example Confirm
             */
            title: string;
        };
        InteractiveRowDto: {
            /**
             * @description comes back as the reply's id, unique within the message
             * @example express
             */
            id: string;
            /** @example Express delivery */
            title: string;
            /** @example Next day */
            description?: string;
        };
        InteractiveSectionDto: {
            /**
             * @description required once the list has two sections or more
             * @example Delivery
             */
            title?: string;
            /** @description the options; at most 10 rows in all the sections together */
            rows: components["schemas"]["InteractiveRowDto"][];
        };
        InteractiveDto: {
            /**
             * @description `buttons` (reply buttons) or `list`
             * @enum {string}
             */
            type: "buttons" | "list";
            /**
             * @description the text; at most 1024 characters with reply buttons
             * @example Shall we deliver tomorrow?
             */
            body: string;
            /**
             * @description a text shown above the body
             * @example Your order
             */
            header?: string;
            /** @example Reply any time */
            footer?: string;
            /** @description `type: "buttons"`: the reply buttons, ids and titles unique */
            buttons?: components["schemas"]["InteractiveButtonDto"][];
            /**
             * @description `type: "list"`: the label of the button that opens the list
             * @example Choose
             */
            button?: string;
            /** @description `type: "list"`: the sections and their rows; row ids unique */
            sections?: components["schemas"]["InteractiveSectionDto"][];
        };
        ReactionDto: {
            /**
             * Format: uuid
             * @description our `id` of the message reacted to (one of this conversation)
             */
            message_id: string;
            /**
             * @description one emoji (a skin tone, a flag or a ZWJ sequence counts as one), or "" to take the reaction back
             * @example 👍
             */
            emoji: string;
        };
        TemplateHeaderDto: {
            /**
             * @description the header's format, as the template declares it
             * @enum {string}
             */
            type: "text" | "image" | "document" | "video";
            /**
             * @description with `type: "text"` (required there): the value of the header's parameter
             * @example Order 1042
             */
            text?: string;
            /** @description with `type` image (JPEG or PNG, at most 5 MB), video (MP4 or 3GPP, at most 16 MB) or document (PDF, at most 100 MB), required there: the file */
            media?: components["schemas"]["MediaDto"];
        };
        TemplateButtonDto: {
            /**
             * @description the button's position in the template, from 0; each at most once
             * @example 0
             */
            index: number;
            /**
             * @description the kind of button: `url` (a link with a dynamic suffix), `quick_reply`, `copy_code` (a coupon code)
             * @enum {string}
             */
            sub_type: "url" | "quick_reply" | "copy_code";
            /**
             * @description a `url` button's suffix to its link, a `quick_reply`'s payload (it comes back with the tap), a `copy_code` button's code
             * @example order/1042
             */
            parameter: string;
        };
        SendMessageDto: ({
            /**
             * @description what to send; a body with `reaction` may leave it out
             * @default text
             * @enum {string}
             */
            type?: "text" | "image" | "document" | "video" | "audio" | "voice" | "sticker" | "location" | "contacts" | "template" | "interactive" | "reaction";
            /** @description text of a text message, at most 65,536 characters (WhatsApp's own limit; the Cloud API refuses more than 4,096) */
            body?: string;
            /** @description alias of `body`, named like the `content` of the message it creates; send one of the two (both only with the same text, else 400 `body and content differ: they are the same field (content is an alias of body), send one of them`) */
            content?: string;
            /** @description with a file `type`: the file, by address or as base64 */
            media?: components["schemas"]["MediaDto"];
            /** @description the text shown with an image, a video or a document */
            caption?: string;
            /** @description with `type: "location"`: the place */
            location?: components["schemas"]["LocationDto"];
            /** @description with `type: "contacts"`: the cards */
            contacts?: components["schemas"]["ContactCardDto"][];
            /** @description with `type: "interactive"`: reply buttons or a list (Cloud API numbers only) */
            interactive?: components["schemas"]["InteractiveDto"];
            /**
             * Format: uuid
             * @description our `id` of a message of this conversation that this one replies to (quotes); any kind but a reaction may reply
             */
            reply_to?: string;
            /** @description a reaction (with `type: "reaction"` or no `type`): not stored as a message; the answer is the message reacted to */
            reaction?: components["schemas"]["ReactionDto"];
            /**
             * Format: uuid
             * @description with `type: "template"`: the template to send
             */
            template_id?: string;
            /** @description with `type: "template"`: the values of `{{1}}`, `{{2}}`, … in order; every parameter of the template is required */
            parameters?: string[];
            /** @description with `type: "template"` (a Cloud API template whose header takes a parameter): the header's text or file */
            header?: components["schemas"]["TemplateHeaderDto"];
            /** @description with `type: "template"` (a Cloud API template with buttons that take a parameter): the parameter of each such button */
            buttons?: components["schemas"]["TemplateButtonDto"][];
        } & {
            body?: string;
            content?: string;
        }) & (({
            /** @enum {string} */
            type?: "text";
        } | unknown | unknown) | {
            /** @enum {string} */
            type: "image";
            media: {
                mime_type?: string;
            };
        } | {
            /** @enum {string} */
            type: "document";
        } | {
            /** @enum {string} */
            type: "video";
            media: {
                mime_type?: string;
            };
        } | {
            /** @enum {string} */
            type: "audio";
            media: {
                mime_type?: string;
            };
        } | {
            /** @enum {string} */
            type: "voice";
            media: {
                mime_type?: string;
            };
        } | {
            /** @enum {string} */
            type: "sticker";
            media: {
                /** @enum {string} */
                mime_type?: "image/webp";
            };
        } | {
            /** @enum {string} */
            type: "location";
        } | {
            /** @enum {string} */
            type: "contacts";
        } | {
            /** @enum {string} */
            type: "template";
        } | {
            /** @enum {string} */
            type: "interactive";
            interactive: {
                /** @enum {string} */
                type: "buttons";
                body: string;
            } | {
                /** @enum {string} */
                type: "list";
            };
        } | {
            /** @enum {string} */
            type?: "reaction";
        });
        EditMessageDto: ({
            /** @description the new text (or `content`, its alias) */
            body?: string;
            /** @description alias of `body` */
            content?: string;
        } & {
            body?: string;
            content?: string;
        }) | unknown | unknown;
        ContactResponse: {
            /** Format: uuid */
            id: string;
            /**
             * @description Digits only (E.164 without +)
             * @example 4915123456789
             */
            phone: string | null;
            /** @description The contact's WhatsApp LID, when known */
            lid: string | null;
            /**
             * @description The contact's Cloud API business-scoped user id, when known (people who hide their number behind a username have only this)
             * @example US.13491208655302741918
             */
            bsuid: string | null;
            name: string;
            /** @description Ids of the workspace labels on the contact (`GET /api/labels` names them) */
            label_ids: string[];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CreateContactDto: {
            /**
             * @description E.164 digits with or without `+`; spaces, dots, dashes and brackets are also accepted (`+49 (151) 234-567`, `0049…`); anything else (`null` too) is 400 `invalid phone number`
             * @example +15551234567
             */
            phone: string;
            /** @description `null` or `""` (or leaving it out): no name */
            name?: string | null;
        };
        UpdateContactDto: {
            /**
             * @description A new phone number; it cannot be removed. E.164 digits with or without `+`; spaces, dots, dashes and brackets are also accepted (`+49 (151) 234-567`, `0049…`); anything else (`null` too) is 400 `invalid phone number`
             * @example +15551234567
             */
            phone?: string;
            /** @description `null` or `""` clears the name */
            name?: string | null;
        };
        DayCountResponse: {
            /**
             * @description The day, in the requested time zone
             * @example 2026-11-22
             */
            date: string;
            /** @description Messages received that day */
            inbound: number;
            /** @description Messages sent that day (from the Console, the API, automations or the phone) */
            outbound: number;
        };
        InboxStatsResponse: {
            /**
             * @description The time zone the days are counted in
             * @example Europe/Berlin
             */
            timezone: string;
            /** @description One entry per day, oldest first, today last; days without messages count 0 */
            days: components["schemas"]["DayCountResponse"][];
            /** @description Open conversations */
            open: number;
            /** @description Open conversations nobody is assigned to */
            unassigned: number;
        };
        SearchResultResponse: {
            /**
             * @description What was found: a message (its text, caption or file name), a contact (name or phone number) or a private note
             * @enum {string}
             */
            type: "message" | "contact" | "note";
            /**
             * Format: uuid
             * @description The message, contact or note
             */
            id: string;
            /**
             * Format: uuid
             * @description The conversation to open: the message's or note's; for a contact its latest conversation the caller sees, or null
             */
            conversation_id: string | null;
            /**
             * Format: uuid
             * @description The contact: the conversation's (null for groups and unlinked chats), or the contact found
             */
            contact_id: string | null;
            /** @description The chat's name (else its phone number); for a contact its name (else its number); '' when unknown */
            chat_name: string;
            /** @description Plain text around the first match (at most 160 characters of the text, `…` where it was cut, whitespace as spaces): a message's text or caption (its file name when only that matched), a note's body, a contact's name (its number when that matched) */
            snippet: string;
            /**
             * @description The matched words in `snippet` as [start, end) offsets in UTF-16 code units (JavaScript string indexes), in order, not overlapping
             * @example [
             *       [
             *         8,
             *         14
             *       ]
             *     ]
             */
            highlights: number[][];
            /**
             * Format: date-time
             * @description The message's time, the note's creation, a contact's latest conversation's last message (else its creation)
             */
            timestamp: string;
            /** @description ts_rank_cd normalised to 0..1 (a phone number match is 1); higher first, then newer first */
            rank: number;
        };
        SearchResponse: {
            /** @description Best first: by rank, then newest first */
            results: components["schemas"]["SearchResultResponse"][];
            /** @description Pass as `cursor` (with the same `q` and `type`) for the next page; null on the last page */
            next_cursor: string | null;
        };
        MentionResponse: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            conversation_id: string;
            /**
             * Format: uuid
             * @description the member who wrote it; null when written with an API key (or the account is gone)
             */
            author_id: string | null;
            /**
             * @description the author's name; `API` when written with an API key
             * @example Ana Lima
             */
            author_name: string;
            body: string;
            mentions: string[];
            /** Format: date-time */
            created_at: string;
            /**
             * @description the conversation's chat name
             * @example Maria Souza
             */
            chat_name: string;
        };
        NoteResponse: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            conversation_id: string;
            /**
             * Format: uuid
             * @description the member who wrote it; null when written with an API key (or the account is gone)
             */
            author_id: string | null;
            /**
             * @description the author's name; `API` when written with an API key
             * @example Ana Lima
             */
            author_name: string;
            body: string;
            mentions: string[];
            /** Format: date-time */
            created_at: string;
        };
        CreateNoteDto: {
            /** @example Customer called, promised a refund by Friday. @Ana can you check? */
            body: string;
            /** @description user ids of the members the note mentions (their Mentions view lists it) */
            mentions?: string[];
        };
        LabelResponse: {
            /** Format: uuid */
            id: string;
            /** @example VIP */
            name: string;
            /**
             * @description `#rrggbb`, lower case
             * @example #1f6feb
             */
            color: string;
            /** Format: date-time */
            created_at: string;
        };
        CreateLabelDto: {
            /**
             * @description unique in the workspace, whatever the case
             * @example VIP
             */
            name: string;
            /**
             * @description stored in lower case
             * @default #1f6feb
             * @example #1f6feb
             */
            color?: string;
        };
        UpdateLabelDto: {
            name?: string;
            /** @example #d1242f */
            color?: string;
        };
        ApplyLabelDto: {
            /**
             * Format: uuid
             * @description a label of this workspace (`GET /api/labels`)
             */
            label_id: string;
        };
        SendSettingsValues: {
            /**
             * @description Least time between two sends of the number, in ms (200 to 600000)
             * @example 1500
             */
            min_gap_ms: number;
            /**
             * @description Random extra time added to each gap, 0 up to this many ms (0 to 600000)
             * @example 2500
             */
            jitter_ms: number;
            /**
             * @description Sustained sends per minute (1 to 300): past the burst, sends wait for this pace
             * @example 12
             */
            per_minute: number;
            /**
             * @description Sends the number may make at the least gap before the per-minute pace holds it (1 to 50)
             * @example 4
             */
            burst: number;
            /**
             * @description Which queued sends show "typing…" to the contact first: `automations` (their sends only), `all`, `off`
             * @example automations
             * @enum {string}
             */
            typing: "automations" | "all" | "off";
            /**
             * @description New chats (the contact never wrote) the number may start in any 24 hours (1 to 1000); over it, 429
             * @example 20
             */
            first_contacts_per_day: number;
            /**
             * @description Messages one chat may get in 24 hours since the contact last wrote (1 to 100); over it, 429
             * @example 5
             */
            unanswered_per_chat: number;
        };
        FirstContactsUseResponse: {
            /** @description New chats started in the last 24 hours */
            used: number;
            /** @description `first_contacts_per_day` */
            cap: number;
            /**
             * Format: date-time
             * @description When the oldest counted chat leaves the 24-hour window (null: none counted)
             */
            resets_at: string | null;
        };
        UnansweredUseResponse: {
            /** @description `unanswered_per_chat` */
            cap: number;
            /** @description One-to-one chats that have reached the cap now (they take no more sends until the contact writes or the window moves) */
            chats_at_cap: number;
        };
        QueueUseResponse: {
            /** @description Sends waiting in the outbound queue */
            depth: number;
            /**
             * Format: date-time
             * @description When the oldest waiting send was queued
             */
            oldest_queued_at: string | null;
        };
        SendLimitsUseResponse: {
            first_contacts: components["schemas"]["FirstContactsUseResponse"];
            unanswered: components["schemas"]["UnansweredUseResponse"];
            queue: components["schemas"]["QueueUseResponse"];
        };
        SendLimitsResponse: {
            /**
             * @description Least time between two sends of the number, in ms (200 to 600000)
             * @example 1500
             */
            min_gap_ms: number;
            /**
             * @description Random extra time added to each gap, 0 up to this many ms (0 to 600000)
             * @example 2500
             */
            jitter_ms: number;
            /**
             * @description Sustained sends per minute (1 to 300): past the burst, sends wait for this pace
             * @example 12
             */
            per_minute: number;
            /**
             * @description Sends the number may make at the least gap before the per-minute pace holds it (1 to 50)
             * @example 4
             */
            burst: number;
            /**
             * @description Which queued sends show "typing…" to the contact first: `automations` (their sends only), `all`, `off`
             * @example automations
             * @enum {string}
             */
            typing: "automations" | "all" | "off";
            /**
             * @description New chats (the contact never wrote) the number may start in any 24 hours (1 to 1000); over it, 429
             * @example 20
             */
            first_contacts_per_day: number;
            /**
             * @description Messages one chat may get in 24 hours since the contact last wrote (1 to 100); over it, 429
             * @example 5
             */
            unanswered_per_chat: number;
            /** @description The service's defaults (SEND_* variables), which hold until the workspace saves its own */
            defaults: components["schemas"]["SendSettingsValues"];
            usage: components["schemas"]["SendLimitsUseResponse"];
        };
        UpdateSendLimitsDto: {
            /** @description Least time between two sends of the number, in ms (200 to 600000) */
            min_gap_ms?: number;
            /** @description Random extra time added to each gap, 0 up to this many ms (0 to 600000) */
            jitter_ms?: number;
            /** @description Sustained sends per minute (1 to 300): past the burst, sends wait for this pace */
            per_minute?: number;
            /** @description Sends the number may make at the least gap before the per-minute pace holds it (1 to 50) */
            burst?: number;
            /**
             * @description Which queued sends show "typing…" to the contact first: `automations` (their sends only), `all`, `off`
             * @enum {string}
             */
            typing?: "automations" | "all" | "off";
            /** @description New chats (the contact never wrote) the number may start in any 24 hours (1 to 1000); over it, 429 */
            first_contacts_per_day?: number;
            /** @description Messages one chat may get in 24 hours since the contact last wrote (1 to 100); over it, 429 */
            unanswered_per_chat?: number;
        };
        QueuedMessageResponse: {
            /**
             * Format: uuid
             * @description The message's id
             */
            id: string;
            /** Format: uuid */
            conversation_id: string;
            /** @description 1-based place in the queue (1: next) */
            position: number;
            /** Format: date-time */
            queued_at: string;
            /**
             * Format: date-time
             * @description Held back until then (the provider asked to slow down); null: at its turn
             */
            not_before: string | null;
        };
        SendQueueResponse: {
            depth: number;
            /** Format: date-time */
            oldest_queued_at: string | null;
            /** @description The first 500 waiting sends, next first */
            messages: components["schemas"]["QueuedMessageResponse"][];
        };
        SessionStateResponse: {
            /** @description The linked session is connected to the channel */
            connected: boolean;
            /** @description The number is linked (paired) to this workspace: from the moment the phone scanned the code. Until the link is finished (the channel restarts the connection and logs in, usually a few seconds) `connected` is still false and no code is pending */
            logged_in: boolean;
            /** @description A QR code is waiting to be scanned */
            qr_pending: boolean;
            /**
             * @description Channel id of the linked number, once linked
             * @example 4915123456789:12@s.whatsapp.net
             */
            jid?: string;
        };
        PairingCodeRequestDto: {
            /**
             * @description The number to link, the one of the phone that will enter the code. E.164 digits with or without `+`; spaces, dots, dashes and brackets are also accepted (`+49 (151) 234-567`, `0049…`); anything else (`null` too) is 400 `invalid phone number`
             * @example +15551234567
             */
            phone: string;
        };
        PairingCodeResponse: {
            /**
             * @description The code to type on the phone (WhatsApp → Linked devices → Link a device → Link with phone number instead)
             * @example ABCD-EFGH
             */
            code: string;
            /**
             * Format: date-time
             * @description When the connection that asked for it stops waiting (about 160 s after the session started registering), by the channel's timing; null when unknown. After it, status `error` says the code expired
             * @example 2026-11-22T07:02:40.000Z
             */
            expires_at: string | null;
        };
        QrCodeResponse: {
            /** @description The raw QR payload; absent when there is no code */
            code?: string;
            /**
             * @description The code as a 256 px PNG data URL; empty when there is no code
             * @example data:image/png;base64,iVBORw0KGgo…
             */
            image: string;
            /** @description true while a code waits to be scanned (it rotates: poll every few seconds) */
            pending: boolean;
            /**
             * Format: date-time
             * @description Only with a code: when it stops being valid, i.e. when the channel shows the next one (about 60 s after the first code of a connect, 20 s after each rotation) or, after the last, the codes expire. Re-read the QR endpoint then
             * @example 2026-11-22T07:01:00.000Z
             */
            expires_at?: string;
            /**
             * @description Only when there is no code: call connect first, the previous code expired, or (between the scan and `connected`) the code was scanned and the number is being linked
             * @example no QR code is waiting to be scanned: call POST /api/chat/connect first
             */
            error?: string;
            /** @description Only when there is no code: the same text as `error` */
            message?: string;
        };
        PasskeyStatusResponse: {
            /**
             * @description The same as the status `state`
             * @enum {string}
             */
            state: "passkey_required" | "passkey_assertion" | "passkey_confirmation";
            /** @description What the person does now, in words */
            explanation: string;
            /**
             * @description In `passkey_confirmation`: the code the phone shows, to compare before `POST /api/chat/passkey/confirm`; else null
             * @example ABCD-EFGH
             */
            code: string | null;
            /**
             * Format: date-time
             * @description When the ceremony gives up (CHAT_PASSKEY_TIMEOUT_MS, at most WhatsApp's own timeout)
             */
            expires_at: string;
        };
        SyncStateResponse: {
            /**
             * @description History sync after linking
             * @enum {string}
             */
            state: "idle" | "running" | "done";
            progress: number;
        };
        ScanEndpointResponse: {
            /**
             * @description The WhatsApp WebSocket URL the sessions connect to (WA_WEBSOCKET_URL, or WhatsApp's own), without user, password, query or fragment
             * @example wss://web.whatsapp.com/ws/chat
             */
            url: string;
            /** @description `url` is WhatsApp's own endpoint (wss://web.whatsapp.com/ws/chat); false: a simulator or another endpoint */
            default: boolean;
            /** @description The service does not run with NODE_ENV=production */
            development: boolean;
        };
        ScanPlacementResponse: {
            /**
             * @description `held`: a worker holds its socket; `waiting`: it has a home, which takes it within seconds (a worker started, stopped or died, or the number is moving to a new home); `unplaced`: no worker has room for it
             * @enum {string}
             */
            state: "held" | "waiting" | "unplaced";
            /**
             * @description What `state` means for this number, in words
             * @example a worker holds this number
             */
            explanation: string;
        };
        SessionStatusResponse: {
            /** @description The linked session is connected to the channel */
            connected: boolean;
            /** @description The number is linked (paired) to this workspace: from the moment the phone scanned the code. Until the link is finished (the channel restarts the connection and logs in, usually a few seconds) `connected` is still false and no code is pending */
            logged_in: boolean;
            /** @description A QR code is waiting to be scanned */
            qr_pending: boolean;
            /**
             * @description Channel id of the linked number, once linked
             * @example 4915123456789:12@s.whatsapp.net
             */
            jid?: string;
            /**
             * @description The session by name, beside the flags (which keep their meaning): `stopped` (not started, stopped on purpose, or its QR codes ran out), `starting` (opening, a number not linked yet), `qr` (a QR code waits; `qr_pending`), `pairing_code` (a pairing code waits to be entered on the phone), `passkey_required` (WhatsApp asked for its passkey check instead of linking: `error` says what to do; nothing was linked; with CHAT_PASSKEY_CEREMONY on, the ceremony waits for the person: `passkey`), `passkey_assertion` (the browser has the challenge), `passkey_confirmation` (the phone shows `passkey.code`), `connecting` (a linked number's socket opens, or a scan is being finished), `connected`, `reconnecting` (the connection was lost; backing off before the next try), `logged_out` (the phone or WhatsApp removed the device; `error` says so), `failed` (stopped on an error: `error`)
             * @example connected
             * @enum {string}
             */
            state: "stopped" | "starting" | "qr" | "pairing_code" | "passkey_required" | "passkey_assertion" | "passkey_confirmation" | "connecting" | "connected" | "reconnecting" | "logged_out" | "failed";
            /**
             * Format: date-time
             * @description Since when `state` holds (RFC 3339)
             * @example 2026-11-22T07:00:00.000Z
             */
            since: string;
            /**
             * @description Why the session stopped on its own, when a person must act: logged out from the phone (the device was removed in Linked devices; `logged_in` is then false), banned, replaced by another connection, failing again and again, WhatsApp's passkey check (`passkey_required`), a pairing code that expired. Absent once it connects, and after a connect, stop or disconnect here
             * @example logged out from the phone (the device was removed in Linked devices): call POST /api/chat/connect to link the number again
             */
            error?: string;
            /** @description Only during the passkey ceremony's states (CHAT_PASSKEY_CEREMONY on): what the person does now (also in `error`), the code once the phone shows one, and when the ceremony gives up (docs/passkey.md) */
            passkey?: components["schemas"]["PasskeyStatusResponse"];
            sync: components["schemas"]["SyncStateResponse"];
            /** @description Where the sessions of this service connect (the same for every workspace). Only for signed-in members (the Console); absent for API keys */
            endpoint?: components["schemas"]["ScanEndpointResponse"];
            /** @description The number's caps and what it used of them in the last 24 hours (new chats started, chats at the unanswered cap), and its outbound queue; the settings are at `GET /api/chat/limits` */
            limits: components["schemas"]["SendLimitsUseResponse"];
            /** @description Where the linked number lives among the worker processes; null while it is not linked or not wanted (stopped). `unplaced`: every worker holds CHAT_MAX_SESSIONS_PER_WORKER numbers, so none takes it (start another worker or raise the cap) */
            placement: components["schemas"]["ScanPlacementResponse"] | null;
        };
        PasskeyLinkResponse: {
            /**
             * @description Open in a desktop browser with the passkey extension: WhatsApp Web, with the one-time link in the fragment (never sent to a server)
             * @example https://web.whatsapp.com/#svc-passkey=eyJ2IjoxLCJhcGkiOiJodHRwczovL2luYm94LmV4YW1wbGUuY29tIn0
             */
            url: string;
            /**
             * Format: date-time
             * @description When the link stops working (CHAT_PASSKEY_LINK_TTL_MS, at most the end of the ceremony)
             */
            expires_at: string;
        };
        PasskeyConfirmDto: {
            /**
             * @description The code the phone shows. Given, it must equal the code of the status (case, spaces and the dash do not matter); a different one ends the ceremony (400) and nothing is linked. Absent: the person compared the codes and confirms
             * @example ABCD-EFGH
             */
            code?: string | null;
        };
        PasskeyStepResponse: {
            /**
             * @description `passkey_assertion` after an assertion (the phone answers next), `connecting` after a confirmation
             * @enum {string}
             */
            state: "passkey_assertion" | "connecting";
        };
        PasskeyChallengeResponse: {
            /** Format: uuid */
            workspace_id: string;
            /**
             * @description WhatsApp's `PublicKeyCredentialRequestOptionsJSON`, for `PublicKeyCredential.parseRequestOptionsFromJSON`
             * @example {
             *       "challenge": "q1w2e3…",
             *       "timeout": 600000,
             *       "rpId": "whatsapp.com",
             *       "allowCredentials": [],
             *       "userVerification": "required",
             *       "extensions": {
             *         "uvm": true
             *       }
             *     }
             */
            options: {
                [key: string]: unknown;
            };
            /**
             * Format: date-time
             * @description When the link (or the ceremony) stops working
             */
            expires_at: string;
        };
        PasskeyAssertionResponseDto: {
            /** @description `clientDataJSON`, unpadded base64url */
            clientDataJSON: string;
            /** @description `authenticatorData`, unpadded base64url */
            authenticatorData: string;
            /** @description The signature, unpadded base64url */
            signature: string;
            /** @description The user handle, unpadded base64url; null or absent when the authenticator gave none */
            userHandle?: string | null;
        };
        PasskeyAssertionDto: {
            /** @description The credential id, unpadded base64url (the same as `rawId`) */
            id: string;
            /** @description The credential id, unpadded base64url */
            rawId: string;
            /** @enum {string} */
            type: "public-key";
            response: components["schemas"]["PasskeyAssertionResponseDto"];
        };
        ScanProxyResponse: {
            /**
             * @description The proxy in use, its credential masked (`***`); null when the number connects directly
             * @example socks5://user:***@proxy.example.com:1080
             */
            url: string | null;
            /**
             * @description `number`: this number's own (PUT); `default`: the service's WA_PROXY_URL, for every number without one; `none`: direct
             * @enum {string}
             */
            source: "number" | "default" | "none";
        };
        PutScanProxyDto: {
            /**
             * @description The number's egress proxy: `http://` or `https://` (HTTP CONNECT; `https://` is TLS to the proxy) or `socks5://`, then `[user:password@]host[:port]` (ports default to 80, 443 and 1080; credentials percent-encoded), nothing else. Stored encrypted; answered with the password masked
             * @example socks5://user:password@proxy.example.com:1080
             */
            url: string;
        };
        NumberCheckResponse: {
            /**
             * @description The number checked, digits only (E.164 without `+`)
             * @example 4915123456789
             */
            phone: string;
            /** @description Whether the number has a WhatsApp account */
            exists: boolean;
            /**
             * @description The number's chat id as WhatsApp answered it; null when it is not on WhatsApp
             * @example 4915123456789@s.whatsapp.net
             */
            jid: string | null;
            /** @description Answered from an earlier check of this workspace (not asked of WhatsApp now; does not count toward the limit) */
            cached: boolean;
            /**
             * Format: date-time
             * @description When WhatsApp gave this answer (RFC 3339)
             * @example 2026-11-22T07:00:00.000Z
             */
            checked_at: string;
        };
        WebhookStatsResponse: {
            /** @description Deliveries not yet delivered nor failed for good (due, waiting for a retry, or held for media). */
            pending: number;
            /** @description Of `pending`: held until their message’s media is stored. */
            held: number;
            /** @description Delivered within the last `window_hours`. Test events (`POST /api/webhooks/{id}/test`) are not counted here, nor in any other figure. */
            delivered: number;
            /** @description Failed for good within the last `window_hours`; test events are not counted. */
            failed: number;
            /** @description Age in seconds of the oldest pending delivery; 0 when none. */
            oldest_pending_age_seconds: number;
            /** @example 24 */
            window_hours: number;
        };
        WebhookSecretResponse: {
            /**
             * @description `whsec_` + base64 of 32 random bytes.
             * @example whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw
             */
            secret: string;
        };
        WebhookResponse: {
            /** Format: uuid */
            id: string;
            /**
             * @description The endpoint, with any credential masked: a password is shown as `***` (`https://user:***@host/…`), and so is a user name without a password (often a token: `https://***@host/…`). Deliveries use the real URL. Send it back unchanged in a PATCH to keep the stored credential.
             * @example https://user:***@hooks.example.com/in
             */
            url: string;
            events: ("scan.chat" | "meta.chat" | "message.status" | "message.sent" | "message.updated" | "message.deleted" | "message.reaction" | "conversation.updated" | "session.status")[];
            enabled: boolean;
            /** @description The channels whose events it receives (`scan`, `meta`); null: every channel. */
            channels: ("scan" | "meta")[] | null;
            /** @description Whether events of group chats reach it; events with no group notion always do. */
            include_groups: boolean;
            /** @description Why the service disabled it: `the endpoint answered 410 Gone` or `every delivery attempt failed for 3 days`; null otherwise. */
            disabled_reason: string | null;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
            /**
             * Format: date-time
             * @description Since when every attempt has failed; null after a success.
             */
            failing_since: string | null;
        };
        CreateWebhookDto: {
            /**
             * @description `https://` only (also `http://` when the service runs with ALLOW_HTTP_WEBHOOKS); a host that is, or resolves to, a private, loopback, link-local, CGNAT, multicast or other internal address is refused (unless ALLOW_PRIVATE_WEBHOOKS). At most 2048 characters. Credentials (`https://user:pass@host/…`, sent as HTTP Basic auth) are stored encrypted and never shown again: answers carry `***` in their place. On a PATCH, the URL as answered, with `***` where the password (or a lone user name) was, keeps the stored one; with anything else changed (path and query included) `***` is 400: give the real credential (spell a literal `***` as `%2A%2A%2A`).
             * @example https://example.com/whatsapp/events
             */
            url: string;
            /** @description The events it receives; default `scan.chat`, `meta.chat`. `scan.chat`: every new message someone sends to the QR-linked number, as soon as it is stored (with media, once its file is); `meta.chat`: each Cloud API callback for the workspace’s numbers, forwarded as the provider sent it; `message.status`: a message moved to sent, delivered, read or failed (with the channel’s reason), or a voice note, audio or video was played; `message.sent`: an outbound message was stored: sent through the API, the Console, an automation, or from the linked phone itself; `message.updated`: a message was edited: its new text, the text before and who edited it; `message.deleted`: a message was deleted for everyone, by its sender or through the API; `message.reaction`: someone reacted to a message, changed the reaction or took it back; `conversation.updated`: a conversation’s status, assignee or labels changed; `session.status`: the QR-linked number’s state changed (connected, reconnecting, logged out, passkey required, failed, stopped, …), or the Cloud API number was disconnected or its token refused. */
            events?: ("scan.chat" | "meta.chat" | "message.status" | "message.sent" | "message.updated" | "message.deleted" | "message.reaction" | "conversation.updated" | "session.status")[];
            /** @default true */
            enabled?: boolean;
            /** @description Only events of these channels’ numbers (`scan`: the QR-linked number, `meta`: the Cloud API number); omitted or `null`: every channel (on a PATCH, `null` goes back to every channel). `webhook.test` is never filtered, and an event of no channel passes. */
            channels?: ("scan" | "meta")[] | null;
            /**
             * @description Whether events of group chats reach it (`scan.chat` of a group message, the message and conversation events of a group); events with no group notion (`session.status`, `meta.chat`) always do.
             * @default true
             */
            include_groups?: boolean;
        };
        UpdateWebhookDto: {
            /**
             * @description `https://` only (also `http://` when the service runs with ALLOW_HTTP_WEBHOOKS); a host that is, or resolves to, a private, loopback, link-local, CGNAT, multicast or other internal address is refused (unless ALLOW_PRIVATE_WEBHOOKS). At most 2048 characters. Credentials (`https://user:pass@host/…`, sent as HTTP Basic auth) are stored encrypted and never shown again: answers carry `***` in their place. On a PATCH, the URL as answered, with `***` where the password (or a lone user name) was, keeps the stored one; with anything else changed (path and query included) `***` is 400: give the real credential (spell a literal `***` as `%2A%2A%2A`).
             * @example https://example.com/whatsapp/events
             */
            url?: string;
            /** @description The events it receives; default `scan.chat`, `meta.chat`. `scan.chat`: every new message someone sends to the QR-linked number, as soon as it is stored (with media, once its file is); `meta.chat`: each Cloud API callback for the workspace’s numbers, forwarded as the provider sent it; `message.status`: a message moved to sent, delivered, read or failed (with the channel’s reason), or a voice note, audio or video was played; `message.sent`: an outbound message was stored: sent through the API, the Console, an automation, or from the linked phone itself; `message.updated`: a message was edited: its new text, the text before and who edited it; `message.deleted`: a message was deleted for everyone, by its sender or through the API; `message.reaction`: someone reacted to a message, changed the reaction or took it back; `conversation.updated`: a conversation’s status, assignee or labels changed; `session.status`: the QR-linked number’s state changed (connected, reconnecting, logged out, passkey required, failed, stopped, …), or the Cloud API number was disconnected or its token refused. */
            events?: ("scan.chat" | "meta.chat" | "message.status" | "message.sent" | "message.updated" | "message.deleted" | "message.reaction" | "conversation.updated" | "session.status")[];
            /** @default true */
            enabled?: boolean;
            /** @description Only events of these channels’ numbers (`scan`: the QR-linked number, `meta`: the Cloud API number); omitted or `null`: every channel (on a PATCH, `null` goes back to every channel). `webhook.test` is never filtered, and an event of no channel passes. */
            channels?: ("scan" | "meta")[] | null;
            /**
             * @description Whether events of group chats reach it (`scan.chat` of a group message, the message and conversation events of a group); events with no group notion (`session.status`, `meta.chat`) always do.
             * @default true
             */
            include_groups?: boolean;
        };
        DeliveryAttemptResponse: {
            /** Format: uuid */
            id: string;
            /**
             * Format: uuid
             * @description The `webhook-id` header: the same on every attempt of a delivery.
             */
            delivery_id: string;
            /**
             * @description `scan.chat`, `meta.chat`, `message.status`, `message.sent`, `message.updated`, `message.deleted`, `message.reaction`, `conversation.updated`, `session.status`, or `webhook.test`
             * @example scan.chat
             */
            event: string;
            /**
             * @description `retrying`: failed, another attempt is scheduled; `failed`: failed, no more attempts.
             * @enum {string}
             */
            status: "delivered" | "retrying" | "failed";
            /** @description 1 for the first attempt of the delivery. */
            attempt: number;
            /** @description The endpoint’s HTTP status; null when no answer came. */
            response_status: number | null;
            /** @example HTTP 500 */
            error: string | null;
            duration_ms: number;
            /**
             * Format: date-time
             * @description When the attempt started.
             */
            created_at: string;
            /**
             * Format: date-time
             * @description When the endpoint accepted it; null unless `delivered`.
             */
            delivered_at: string | null;
        };
        TemplateResponse: {
            /** Format: uuid */
            id: string;
            /** @example order_update */
            name: string;
            /** @example en_US */
            language: string;
            /**
             * @description `MARKETING`, `UTILITY` or `AUTHENTICATION`
             * @example UTILITY
             */
            category: string;
            /**
             * @description with `{{1}}`-style parameters
             * @example Hello {{1}}, your order {{2}} has shipped.
             */
            body: string;
            /**
             * @description the provider's review status; null for a local template
             * @example APPROVED
             */
            status: string | null;
            /**
             * @description the provider's quality rating; null when unknown or local
             * @example GREEN
             */
            quality: string | null;
            /** @description the provider's template id; null for a local template */
            provider_id: string | null;
        };
        CreateTemplateDto: {
            /** @example order_update */
            name: string;
            /**
             * @default en
             * @example en_US
             */
            language?: string;
            /**
             * @description case-insensitive; stored in upper case
             * @default UTILITY
             * @enum {string}
             */
            category?: "MARKETING" | "UTILITY" | "AUTHENTICATION";
            /** @example Hello {{1}}, your order {{2}} has shipped. */
            body: string;
        };
        UpdateTemplateDto: {
            name?: string;
            /** @example en_US */
            language?: string;
            /** @enum {string} */
            category?: "MARKETING" | "UTILITY" | "AUTHENTICATION";
            body?: string;
        };
        ConditionDoc: {
            /** @enum {string} */
            field: "content" | "chat_phone" | "is_group" | "message_type" | "kind";
            /**
             * @description `is_group` supports only `equals`
             * @enum {string}
             */
            op: "contains" | "equals" | "starts_with" | "matches";
            /** @description a string (a case-insensitive regular expression for `matches`), or true/false for `is_group` */
            value: string | boolean;
        };
        ActionDoc: {
            /** @enum {string} */
            type: "reply" | "reply_template" | "assign" | "answer_from_knowledge" | "mark_read" | "add_label" | "set_status";
            /** @description `reply`: the text to send */
            body?: string;
            /**
             * Format: uuid
             * @description `reply_template`: the template to send
             */
            template_id?: string;
            /** @description `reply_template`: the template's parameters */
            parameters?: string[];
            /**
             * Format: uuid
             * @description `assign`: a member, or null to unassign
             */
            user_id?: string | null;
            /** @description `answer_from_knowledge`: rank needed (default `KNOWLEDGE_ANSWER_MIN_RANK`) */
            min_rank?: number;
            /**
             * Format: uuid
             * @description `add_label`: the label to put on the conversation
             */
            label_id?: string;
            /**
             * @description `set_status`: the status to set
             * @enum {string}
             */
            status?: "open" | "pending" | "snoozed" | "closed";
            /** @description `set_status` with `snoozed` (required then): minutes until it opens again */
            snooze_minutes?: number;
        };
        AutomationResponse: {
            /** Format: uuid */
            id: string;
            name: string;
            enabled: boolean;
            /** @enum {string} */
            trigger: "message.inbound" | "conversation.created";
            /** @enum {string} */
            match: "all" | "any";
            conditions: components["schemas"]["ConditionDoc"][];
            actions: components["schemas"]["ActionDoc"][];
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CreateAutomationDto: {
            /** @example Refund keyword */
            name: string;
            /** @default true */
            enabled?: boolean;
            /** @enum {string} */
            trigger: "message.inbound" | "conversation.created";
            /**
             * @default all
             * @enum {string}
             */
            match?: "all" | "any";
            /** @description none (absent, `null` or `[]`): the automation runs on every trigger */
            conditions?: ({
                /** @enum {string} */
                field: "content";
                /** @enum {string} */
                op: "contains" | "equals" | "starts_with";
                value: string;
            } | {
                /** @enum {string} */
                field: "chat_phone";
                /** @enum {string} */
                op: "contains" | "equals" | "starts_with";
                /** @description digits of a phone number (`+44`, `49151…`) */
                value: string;
            } | {
                /** @enum {string} */
                field: "message_type";
                /** @enum {string} */
                op: "equals";
                /** @enum {string} */
                value: "text" | "image" | "document";
            } | {
                /** @enum {string} */
                field: "message_type";
                /** @enum {string} */
                op: "contains" | "starts_with";
                value: string;
            } | {
                /** @enum {string} */
                field: "kind";
                /** @enum {string} */
                op: "equals";
                /**
                 * @description what the message is precisely (`voice`, `location`, …)
                 * @enum {string}
                 */
                value: "text" | "image" | "document" | "video" | "audio" | "voice" | "sticker" | "location" | "contacts" | "poll" | "unsupported";
            } | {
                /** @enum {string} */
                field: "kind";
                /** @enum {string} */
                op: "contains" | "starts_with";
                value: string;
            } | {
                /** @enum {string} */
                field: "content" | "chat_phone" | "message_type" | "kind";
                /** @enum {string} */
                op: "matches";
                /** @description a regular expression (JavaScript syntax), matched case-insensitively */
                value: string;
            } | {
                /** @enum {string} */
                field: "is_group";
                /** @enum {string} */
                op: "equals";
                value: boolean;
            })[] | null;
            /** @description run in order */
            actions: ({
                /** @enum {string} */
                type: "reply";
                /** @description the text to send */
                body: string;
            } | {
                /** @enum {string} */
                type: "reply_template";
                /**
                 * Format: uuid
                 * @description a template of the workspace
                 */
                template_id: string;
                parameters?: string[];
            } | {
                /** @enum {string} */
                type: "assign";
                /**
                 * Format: uuid
                 * @description a member, or null to unassign
                 */
                user_id: string | null;
            } | {
                /** @enum {string} */
                type: "answer_from_knowledge";
                /** @description rank needed (default `KNOWLEDGE_ANSWER_MIN_RANK`) */
                min_rank?: number;
            } | {
                /** @enum {string} */
                type: "mark_read";
            } | {
                /** @enum {string} */
                type: "add_label";
                /**
                 * Format: uuid
                 * @description a label of the workspace (`GET /api/labels`)
                 */
                label_id: string;
            } | ({
                /** @enum {string} */
                type: "set_status";
                /** @enum {string} */
                status: "open" | "pending" | "closed";
            } | {
                /** @enum {string} */
                type: "set_status";
                /** @enum {string} */
                status: "snoozed";
                /** @description how long, in minutes (up to 365 days) */
                snooze_minutes: number;
            }))[];
        };
        UpdateAutomationDto: {
            name?: string;
            enabled?: boolean;
            /** @enum {string} */
            trigger?: "message.inbound" | "conversation.created";
            /** @enum {string} */
            match?: "all" | "any";
            /** @description `null` or `[]` removes every condition */
            conditions?: ({
                /** @enum {string} */
                field: "content";
                /** @enum {string} */
                op: "contains" | "equals" | "starts_with";
                value: string;
            } | {
                /** @enum {string} */
                field: "chat_phone";
                /** @enum {string} */
                op: "contains" | "equals" | "starts_with";
                /** @description digits of a phone number (`+44`, `49151…`) */
                value: string;
            } | {
                /** @enum {string} */
                field: "message_type";
                /** @enum {string} */
                op: "equals";
                /** @enum {string} */
                value: "text" | "image" | "document";
            } | {
                /** @enum {string} */
                field: "message_type";
                /** @enum {string} */
                op: "contains" | "starts_with";
                value: string;
            } | {
                /** @enum {string} */
                field: "kind";
                /** @enum {string} */
                op: "equals";
                /**
                 * @description what the message is precisely (`voice`, `location`, …)
                 * @enum {string}
                 */
                value: "text" | "image" | "document" | "video" | "audio" | "voice" | "sticker" | "location" | "contacts" | "poll" | "unsupported";
            } | {
                /** @enum {string} */
                field: "kind";
                /** @enum {string} */
                op: "contains" | "starts_with";
                value: string;
            } | {
                /** @enum {string} */
                field: "content" | "chat_phone" | "message_type" | "kind";
                /** @enum {string} */
                op: "matches";
                /** @description a regular expression (JavaScript syntax), matched case-insensitively */
                value: string;
            } | {
                /** @enum {string} */
                field: "is_group";
                /** @enum {string} */
                op: "equals";
                value: boolean;
            })[] | null;
            /** @description cannot be emptied (`null` is 400) */
            actions?: ({
                /** @enum {string} */
                type: "reply";
                /** @description the text to send */
                body: string;
            } | {
                /** @enum {string} */
                type: "reply_template";
                /**
                 * Format: uuid
                 * @description a template of the workspace
                 */
                template_id: string;
                parameters?: string[];
            } | {
                /** @enum {string} */
                type: "assign";
                /**
                 * Format: uuid
                 * @description a member, or null to unassign
                 */
                user_id: string | null;
            } | {
                /** @enum {string} */
                type: "answer_from_knowledge";
                /** @description rank needed (default `KNOWLEDGE_ANSWER_MIN_RANK`) */
                min_rank?: number;
            } | {
                /** @enum {string} */
                type: "mark_read";
            } | {
                /** @enum {string} */
                type: "add_label";
                /**
                 * Format: uuid
                 * @description a label of the workspace (`GET /api/labels`)
                 */
                label_id: string;
            } | ({
                /** @enum {string} */
                type: "set_status";
                /** @enum {string} */
                status: "open" | "pending" | "closed";
            } | {
                /** @enum {string} */
                type: "set_status";
                /** @enum {string} */
                status: "snoozed";
                /** @description how long, in minutes (up to 365 days) */
                snooze_minutes: number;
            }))[];
        };
        ArticleResponse: {
            /** Format: uuid */
            id: string;
            /** @example Refund policy */
            title: string;
            body: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        ArticleHitResponse: {
            /** Format: uuid */
            id: string;
            title: string;
            body: string;
            /**
             * @description Postgres `ts_rank` with normalisation 32 (rank / (rank + 1)), title words weighing more than body words; the scale of `answer_from_knowledge`'s threshold
             * @example 0.41
             */
            rank: number;
        };
        CreateArticleDto: {
            /** @example Refund policy */
            title: string;
            /** @example You can ask for a refund within 30 days of purchase. */
            body: string;
        };
        UpdateArticleDto: {
            title?: string;
            body?: string;
        };
        QuickReplyResponse: {
            /** Format: uuid */
            id: string;
            /**
             * @description without the `/`
             * @example thanks
             */
            shortcut: string;
            body: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            updated_at: string;
        };
        CreateQuickReplyDto: {
            /**
             * @description what follows `/` in the composer; a leading `/` is dropped
             * @example thanks
             */
            shortcut: string;
            /**
             * @description text with placeholders `{{contact.name}}`, `{{contact.phone}}`, `{{agent.name}}`, `{{conversation.name}}`
             * @example Thanks {{contact.name}}, {{agent.name}} here: happy to help!
             */
            body: string;
        };
        UpdateQuickReplyDto: {
            /** @example thanks */
            shortcut?: string;
            body?: string;
        };
        RenderQuickReplyDto: {
            /**
             * Format: uuid
             * @description the conversation the text is for (its contact, chat name)
             */
            conversation_id: string;
        };
        RenderedQuickReplyResponse: {
            /** @example Thanks Maria, Ana here: happy to help! */
            text: string;
        };
        MetaSettingsResponse: {
            /** @description null while the workspace has no Cloud API number */
            phone_number_id: string | null;
            waba_id: string | null;
            /**
             * @description As the provider displays it; empty while not configured
             * @example +1 555-078-3881
             */
            display_phone_number: string;
            /** @description The business name the provider verified; empty when unknown */
            verified_name: string;
            /** @description Configured and the token was accepted (false after the provider refused the token: save the settings again) */
            connected: boolean;
            /** @description An access token is stored (it is never returned) */
            token_set: boolean;
            /** @description Why the channel is disconnected, when it is */
            error: string | null;
        };
        PutMetaSettingsDto: {
            /**
             * @description The number's id at the provider (not the phone number)
             * @example 106540352242922
             */
            phone_number_id: string;
            /**
             * @description The WhatsApp Business Account the number belongs to
             * @example 102290129340398
             */
            waba_id: string;
            /**
             * @description A system-user or business token with whatsapp_business_messaging and whatsapp_business_management; stored encrypted, never returned. May be left out to keep the stored one
             * @example EAAGexampletoken
             */
            access_token?: string;
        };
        MetaSignupConfigResponse: {
            /**
             * @description The platform's Meta app id (FB.init `appId`)
             * @example 1234567890
             */
            app_id: string;
            /**
             * @description The Facebook Login for Business configuration (FB.login `config_id`)
             * @example 987654321
             */
            config_id: string;
            /**
             * @description The Graph API version (FB.init `version`)
             * @example v23.0
             */
            graph_version: string;
            /**
             * @description The Embedded Signup version (FB.login `extras.version`)
             * @example v4
             */
            signup_version: string;
        };
        MetaSignupDto: {
            /** @description `authResponse.code` of the FB.login callback (short-lived: send it at once) */
            code: string;
            /**
             * @description `data.waba_id` of the WA_EMBEDDED_SIGNUP FINISH message
             * @example 102290129340398
             */
            waba_id: string;
            /**
             * @description `data.phone_number_id` of the WA_EMBEDDED_SIGNUP FINISH message
             * @example 106540352242922
             */
            phone_number_id: string;
        };
        DurationStatsResponse: {
            /** @description How many were measured */
            count: number;
            /** @description Median in seconds (null when none) */
            median_s: number | null;
            /** @description Average in seconds (null when none) */
            average_s: number | null;
        };
        ReportTotalsResponse: {
            /** @description Openings in the range: conversations created, or reopened after being closed */
            opened: number;
            /** @description Closings in the range */
            closed: number;
            /** @description First responses: an opening's first inbound message to the first reply a person sent (Console or API) */
            first_response: components["schemas"]["DurationStatsResponse"];
            /** @description Resolutions: opening to closing, for the closings in the range */
            resolution: components["schemas"]["DurationStatsResponse"];
        };
        ReportDayResponse: {
            /**
             * @description The day, in the requested time zone
             * @example 2026-11-22
             */
            date: string;
            opened: number;
            closed: number;
            /** @description Median first-response time of the first responses that day */
            first_response_median_s: number | null;
            /** @description Median resolution time of the closings that day */
            resolution_median_s: number | null;
        };
        ReportAgentResponse: {
            /** Format: uuid */
            user_id: string;
            /** @description The member’s name (their email when they set none; "" once the account is gone) */
            name: string;
            /** @description Closings of conversations assigned to them */
            closed: number;
            /** @description First responses they sent (a key’s count for the assignee) */
            first_responses: number;
            first_response_median_s: number | null;
            resolution_median_s: number | null;
        };
        ConversationReportResponse: {
            /**
             * @description The time zone the days are counted in (canonical name)
             * @example Europe/Berlin
             */
            timezone: string;
            /**
             * @description First day of the range (inclusive)
             * @example 2026-11-09
             */
            from: string;
            /**
             * @description Last day of the range (inclusive)
             * @example 2026-11-22
             */
            to: string;
            totals: components["schemas"]["ReportTotalsResponse"];
            /** @description Every day of the range, oldest first; days without activity count 0 */
            days: components["schemas"]["ReportDayResponse"][];
            /** @description Every member, and former members with activity in the range; most closed first */
            agents: components["schemas"]["ReportAgentResponse"][];
        };
        ErrorResponse: {
            /**
             * @description Human-readable; branch on the HTTP status, not on this text.
             * @example conversation not found
             */
            error: string;
            /**
             * @description `payment_required` (402) or `not_found` (unknown path)
             * @example not_found
             */
            code?: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    HealthController_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description `{status:"ok", checks:{database:"up", redis:"up"}}` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthReport"];
                };
            };
            /** @description `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `status:"degraded"` with the failing check `"down"`; `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthReport"];
                };
            };
        };
    };
    ApiKeysController_list: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyResponse"][];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ApiKeysController_create: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyDto"];
            };
        };
        responses: {
            /** @description `key` is shown this once and never again. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKeyResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ApiKeysController_revoke: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The next request with the key gets 401. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid API key id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key not found`: unknown, already revoked, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `the key is revoked but not every server could be told yet; retry the request`; `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AuthController_register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegisterDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegisteredResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `an account with this email already exists` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AuthController_login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LoginDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `invalid email or password` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AuthController_logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized`: no valid session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API keys cannot administer workspaces` (an API key); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AuthController_me: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SignedInResponse"];
                };
            };
            /** @description `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized`: no valid session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API keys cannot administer workspaces` (an API key); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AuthController_forgotPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AuthController_resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ResetPasswordDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid or expired token`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AuthController_verifyEmail: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid or expired token`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AuthController_resendVerification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EmailDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AuthController_providers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProvidersResponse"];
                };
            };
            /** @description `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    GoogleSignInController_start: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To Google's authorization endpoint (state, nonce, PKCE); sets the short-lived `svc_google_flow` cookie */
            302: {
                headers: {
                    /** @description Google's authorization URL */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `Google sign-in is not configured`, `Google sign-in is temporarily unavailable: Google could not be reached, please try again in a minute`; `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    GoogleSignInController_callback: {
        parameters: {
            query?: {
                /** @description `access_denied` when the person cancelled, or another OAuth error */
                error?: string;
                /** @description Must match the attempt in `svc_google_flow` */
                state?: string;
                /** @description The authorization code (from Google) */
                code?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To `/` signed in (`svc_session` set) when the Google account is linked; to `/signup/google` (`svc_google_pending` set) when it is not; to `/login?error=google&reason=<code>` on any failure, with reason one of `not_configured`, `access_denied`, `provider_error`, `flow_expired`, `state_mismatch`, `code_rejected`, `invalid_token`, `email_missing`, `unavailable` */
            302: {
                headers: {
                    /** @description A Console page on this origin: `/`, `/signup/google` or `/login?error=google&reason=<code>` */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    GoogleSignInController_pending: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GooglePendingResponse"];
                };
            };
            /** @description `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `no pending Google sign-up`, `the Google sign-up expired: continue with Google again` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    GoogleSignInController_confirm: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GoogleConfirmDto"];
            };
        };
        responses: {
            /** @description Signed in: `svc_session` set, `svc_google_pending` cleared */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RegisteredResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `no pending Google sign-up`, `the Google sign-up expired: continue with Google again` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `an account with this email already exists and Google has not verified this address, so it cannot be linked: sign in with your password instead`, `an account with this email already exists but its address is not verified: sign in with your password (or reset it), verify the address, then continue with Google`, `an account with this email already exists and is linked to a different Google account`, `an account with this email already exists` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ContactController_submit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ContactDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WorkspacesController_list: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceResponse"][];
                };
            };
            /** @description `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized`: no valid session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API keys cannot administer workspaces` (an API key); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WorkspacesController_create: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceNameDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized`: no valid session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API keys cannot administer workspaces` (an API key); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WorkspacesController_get: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `workspace not found`: deleted meanwhile */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WorkspacesController_rename: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkspaceNameDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkspaceResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `workspace not found`: deleted meanwhile */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MembersController_list: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberResponse"][];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MembersController_remove: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid user id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `only an owner can make or change owners`; `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `member not found`: not a member, or removed already */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `the last owner of a workspace cannot be demoted or removed` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MembersController_changeRole: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                user_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ChangeRoleDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MemberResponse"];
                };
            };
            /** @description `invalid user id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `only an owner can make or change owners`; `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `member not found`: not a member, or removed already */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `the last owner of a workspace cannot be demoted or removed` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    InvitesController_list: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InviteResponse"][];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    InvitesController_create: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateInviteDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InviteResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `only an owner can make or change owners`: an admin inviting an owner; `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `this person is already a member of the workspace` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    InvitesController_accept: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AcceptInviteDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AcceptInviteResponse"];
                };
            };
            /** @description `invalid or expired invite`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized`: no valid session */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `this invite was sent to a different email address`; `API keys cannot administer workspaces` (an API key); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    InvitesController_revoke: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid invite id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `invite not found`: unknown, already revoked or accepted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    EventsController_stream: {
        parameters: {
            query?: {
                /** @description Comma-separated webhook catalogue types (`message.status`, `message.sent`, `message.updated`, `message.deleted`, `message.reaction`, `conversation.updated`, `session.status`): the stream then carries exactly those, each with the webhook's body as `data` and its type as `event:` (see the `webhooks` section), and none of the events above. Agents receive those of the conversations they may see. */
                events?: string;
                /** @description The same as `Last-Event-ID`, for clients that cannot set headers; the header wins when both are sent */
                last_event_id?: string;
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description Resume after this event id (the last `id:` received) */
                "Last-Event-ID"?: string;
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description An endless `text/event-stream` (Server-Sent Events). It opens with `retry: 3000` and a `: connected` comment, replays what was missed when `Last-Event-ID` is sent (up to 10 minutes back; a workspace keeps a replay while a stream of it is open and for 20 minutes after the last one closed), then sends events as they happen and a `: keep-alive` comment every 25 s. Each event has `id:` (`<ms>-<seq>`, opaque, growing), `event:` and one line of JSON in `data:`: `message.created` and `message.updated` (a message, as `GET /api/conversations/{id}/messages` lists it); `conversation.updated` (a conversation, as `GET /api/conversations/{id}` answers it); `contact.created` and `contact.updated` (a contact, as `GET /api/contacts/{id}` answers it, after `POST /api/contacts` or `PATCH /api/contacts/{id}`); `contact.deleted` (`{id}`, after `DELETE /api/contacts/{id}`); `note.created` (a private note, as `GET /api/conversations/{id}/notes` lists it; no webhook carries notes); `sync.progress` (`{progress: 0..100, chats, messages, done}` while the history syncs after linking); `session.updated` (the scan channel session state: `connected`, `logged_in`, `qr_pending`, `jid`). Agents receive conversation, message and note events only of conversations that are unassigned or assigned to them. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example retry: 3000
                     *     : connected
                     *
                     *     id: 1763800000123-0
                     *     event: message.created
                     *     data: {"id":"0b5c…","conversation_id":"7f3e…","direction":"inbound","message_type":"text","content":"hi","status":"delivered","timestamp":"2026-11-22T07:00:00.000Z"}
                     *
                     *     : keep-alive
                     */
                    "text/event-stream": string;
                };
            };
            /** @description `invalid Last-Event-ID: expected an event id such as 1700000000000-0`, `events must be a comma-separated list of message.status, message.sent, message.updated, message.deleted, message.reaction, conversation.updated, session.status`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `live events are unavailable, retry shortly`; `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ConversationsController_list: {
        parameters: {
            query?: {
                /** @description The `X-Next-Cursor` header of the previous page (opaque): the page after it */
                before?: string;
                /** @description Conversations per page */
                limit?: number;
                /** @description A case-insensitive part of the chat name, or digits of the phone number (`?q=` searches nothing) */
                q?: string;
                /** @description `true`: with unread inbound messages; `false`: none */
                unread?: "true" | "false";
                /** @description Only conversations of this channel */
                channel?: "scan" | "meta";
                /** @description Only conversations with this label (`GET /api/labels`) */
                label?: string;
                /** @description `me` (the signed-in user; not with an API key), `none` (unassigned) or a member's user id */
                assignee?: ("me" | "none") | string;
                /** @description Only conversations with this status */
                status?: "open" | "pending" | "snoozed" | "closed";
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    /** @description Present when more conversations follow: the `before` of the next page (opaque). Absent on the last page */
                    "X-Next-Cursor"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationResponse"][];
                };
            };
            /** @description `status must be open, pending, snoozed or closed`, `assignee must be me, none or a user id`, `assignee=me needs a signed-in user; use a user id with an API key`, `label must be a label id`, `channel must be scan or meta`, `unread must be true or false`, `limit must be an integer between 1 and 100`, `invalid cursor`, `q must be at most 200 characters`, `q must be given once, as text`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ConversationsController_start: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StartConversationDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StartedConversationResponse"];
                };
            };
            /** @description `invalid phone number`, `message body is required`: `body` (or `content`) given but empty, `body and content differ: they are the same field (content is an alias of body), send one of them`, a first message of another kind refused as on `POST /api/conversations/{id}/messages` (`media is required for <type> messages`, `a voice note must be audio/ogg with the Opus codec`, `a sticker must be a WebP image (image/webp)`, `media is larger than <n> bytes …`, `location is required for location messages`, `contacts[i].phones[j] is not a phone number`, a refused `media.url`, …); nothing is stored, `the Cloud API sends <noun> only as <types> (got <type>)`: a Cloud API number and a type it does not take (image image/jpeg, image/png; video video/mp4, video/3gpp; audio audio/aac, audio/amr, audio/mpeg, audio/mp4, audio/ogg; voice audio/ogg; sticker image/webp), `<noun> for the Cloud API must be at most <size>`: a Cloud API number and uploaded bytes over its limit (image 5 MB; video 16 MB; audio 16 MB; voice 16 MB; sticker 100 KB (500 KB when animated); a document's 100 MB is above the inbox's own limit), `phone number is not on WhatsApp`: a number linked by QR code checked the number (its cache, else WhatsApp) before starting a chat the contact never wrote in; nothing is stored; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`: an agent starting a chat that is assigned to someone else */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `chat is not connected` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `new chats limit reached: this number started <cap> new chats in the last 24 hours (cap <cap> per day)` (a number linked by QR code starting a chat the contact never wrote in; `limit: "first_contacts"`), `unanswered messages limit reached: <cap> messages sent to this chat in the last 24 hours without a reply (cap <cap> per chat)` (`limit: "unanswered"`); both with `Retry-After` in seconds (when the oldest counted send leaves the 24 hours) and `retry_at` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The channel refused the message; the body also holds the `conversation` created before the send failed. Or the host of `media.url` failed (`media url answered HTTP <status>`, …): nothing is stored */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ConversationsController_counts: {
        parameters: {
            query?: {
                /** @description The status the other figures count within (default `open`) */
                status?: "open" | "pending" | "snoozed" | "closed";
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationCountsResponse"];
                };
            };
            /** @description `status must be open, pending, snoozed or closed`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ConversationsController_get: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationResponse"];
                };
            };
            /** @description `invalid conversation id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ConversationsController_update: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateConversationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationResponse"];
                };
            };
            /** @description `invalid conversation id`, `status must be open, pending, snoozed or closed`, `snoozed_until is required when status is snoozed`, `snoozed_until is only for status snoozed`, `snoozed_until must be an RFC 3339 date-time with a time zone, e.g. 2026-12-03T09:00:00Z`, `snoozed_until must be a future date-time`, `snoozed_until must be at most 365 days ahead`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ConversationsController_markRead: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid conversation id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ConversationsController_typing: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["TypingDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid conversation id`, `request body must be a JSON object`, `state must be one of composing, recording, paused`, `duration_ms must be an integer from 1 to 30000`, `this channel has no typing indicator`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `chat is not connected` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `WhatsApp did not take the typing indicator in time; try again` */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ConversationsController_assign: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssignConversationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationResponse"];
                };
            };
            /** @description `invalid conversation id`, `user_id is required (a member id, or null to unassign)`, `invalid user id`, `assignee must be a member of this workspace`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `only admins can assign conversations`; `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MessagesController_list: {
        parameters: {
            query?: {
                /** @description Fill a gap: the messages whose `seq` is greater than this, oldest first (ascending `seq`), at most `limit`; `next_cursor` is then always null (ask again with the last `seq` received; a page shorter than `limit` is the end). A non-negative integer; not together with `before`. */
                after_seq?: number;
                /** @description The `next_cursor` of the previous page (opaque): the page of messages older than it */
                before?: string;
                /** @description Messages per page */
                limit?: number;
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagePageResponse"];
                };
            };
            /** @description `invalid conversation id`, `limit must be an integer between 1 and 100`, `invalid cursor`, `after_seq must be a non-negative integer`, `after_seq cannot be combined with before: after_seq pages oldest first, before newest first`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MessagesController_send: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SendMessageDto"];
            };
        };
        responses: {
            /** @description The message as stored; `status` moves on as the channel reports. On a number linked by QR code every new message waits in the number's paced outbound queue: the answer is `pending` with `queue_position`, and the message moves to `sent` at its turn (docs: Sending). A Cloud API send the provider asked to retry later is answered the same way */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            /** @description `invalid conversation id`, `message body is required`, `body and content differ: they are the same field (content is an alias of body), send one of them`, `media is required for <type> messages`, an invalid `media` (the text names the problem), `<noun> needs <family> mime_type` (an image `image/*`, a video `video/*`, audio `audio/*`), `a voice note must be audio/ogg with the Opus codec`, `a sticker must be a WebP image (image/webp)`, `media is larger than <n> bytes (<size>, the limit for <noun>)`: uploaded bytes over the kind's limit, `the Cloud API sends <noun> only as <types> (got <type>)`: a Cloud API number and a type it does not take (image image/jpeg, image/png; video video/mp4, video/3gpp; audio audio/aac, audio/amr, audio/mpeg, audio/mp4, audio/ogg; voice audio/ogg; sticker image/webp), `<noun> for the Cloud API must be at most <size>`: a Cloud API number and uploaded bytes over its limit (image 5 MB; video 16 MB; audio 16 MB; voice 16 MB; sticker 100 KB (500 KB when animated); a document's 100 MB is above the inbox's own limit), `interactive messages need a Cloud API number`, `location is required for location messages`, `location.latitude must be a number between -90 and 90`, `location.longitude must be a number between -180 and 180`, `location url must be an http or https address`, `contacts is required for contacts messages`, `contacts must be a list of 1 to 10 cards`, `contacts[i].name must not be blank`, `contacts[i].phones[j] is not a phone number`, `invalid reply_to id`, `the message replied to was not sent: it has no WhatsApp id to quote`, `reaction is required for reaction messages`, `invalid reaction.message_id`, `reaction.emoji must be one emoji (a skin tone, a flag or a ZWJ sequence counts as one), or "" to take the reaction back`, `a reaction has no text: send the text as a message of its own`, `a reaction replies to nothing: name the message in reaction.message_id`, `this channel cannot send reactions`, `the message was not sent: it has no WhatsApp id yet`, `a message deleted for everyone cannot be reacted to`, `media.url` refused, nothing stored: `media url must be an http or https address`, `media url points to a private or local address`, `media is larger than <n> bytes`, `media url did not answer an image`, `media url host <host> could not be resolved`, `template_id is required for template messages`, `invalid template id`, `template parameter {{n}} is missing (the template takes n)`, `template parameter {{n}} is empty`, `the template takes n parameters, m were given`, `parameters must be an array of at most 100 strings of at most 1024 characters`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`, `template not found`: unknown or another workspace's, `message not found`: `reply_to` or `reaction.message_id` is not a message of this conversation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `chat is not connected` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `new chats limit reached: this number started <cap> new chats in the last 24 hours (cap <cap> per day)` (a number linked by QR code starting a chat the contact never wrote in; `limit: "first_contacts"`), `unanswered messages limit reached: <cap> messages sent to this chat in the last 24 hours without a reply (cap <cap> per chat)` (`limit: "unanswered"`); both with `Retry-After` in seconds (when the oldest counted send leaves the 24 hours) and `retry_at` */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description the channel failed to send; the text says why, and the message is stored with `status: "failed"` (a reaction: nothing is stored); `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description the host of `media.url` failed (`media url answered HTTP <status>`, `media url could not be fetched`, …); nothing is stored, retry later */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MessagesController_revoke: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                message_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The message, `deleted: true` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            /** @description `invalid conversation id`, `invalid message id`, `only a message this number sent can be deleted for everyone`, `the message was not sent: it has no WhatsApp id yet`, `a message can be deleted for everyone only within 48 hours of sending it`, `this channel cannot delete messages for everyone`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`, `message not found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `chat is not connected` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `the channel failed to delete the message` (or the channel's own text); the message is not marked deleted; `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MessagesController_edit: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                message_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EditMessageDto"];
            };
        };
        responses: {
            /** @description The message with its new text, `edited: true` */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageResponse"];
                };
            };
            /** @description `invalid conversation id`, `invalid message id`, `message body is required`, `body and content differ: they are the same field (content is an alias of body), send one of them`, `only a message this number sent can be edited`, `only a text can be edited`, `a message deleted for everyone cannot be edited`, `the message was not sent: it has no WhatsApp id yet`, `a message can be edited only within 15 minutes of sending it`, `this channel cannot edit messages`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`, `message not found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `chat is not connected` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `the channel failed to edit the message` (or the channel's own text); the message keeps its text; `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ContactsController_list: {
        parameters: {
            query?: {
                /** @description Search: a case-insensitive part of the name, or digits of the phone number (the first 100 characters count); given twice it is 400 */
                q?: string;
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactResponse"][];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ContactsController_create: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateContactDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactResponse"];
                };
            };
            /** @description `invalid phone number`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `a contact with this phone number already exists` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ContactsController_get: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactResponse"];
                };
            };
            /** @description `invalid contact id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `contact not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ContactsController_delete: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid contact id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `contact not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ContactsController_update: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateContactDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactResponse"];
                };
            };
            /** @description `invalid contact id`, `invalid phone number`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `contact not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `a contact with this phone number already exists` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    InboxStatsController_read: {
        parameters: {
            query?: {
                /** @description IANA time zone the days are counted in: a name of the tz database (`Europe/Berlin`, `UTC`) or one of its aliases (`US/Pacific`, `utc`); `timezone` in the answer is its canonical name. A name the tz database does not have is 400 like a malformed one. */
                tz?: string;
                /** @description How many days, today included */
                days?: number;
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InboxStatsResponse"];
                };
            };
            /** @description `days must be an integer between 1 and 90`, `tz must be an IANA time zone such as Europe/Berlin`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    SearchController_find: {
        parameters: {
            query: {
                /** @description The `next_cursor` of the previous page (opaque), with the same `q` and `type` */
                cursor?: string;
                /** @description Results per page */
                limit?: number;
                /** @description What to search */
                type?: "all" | "messages" | "contacts" | "notes";
                /** @description The words to find */
                q: string;
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SearchResponse"];
                };
            };
            /** @description `q is required`: absent, empty or only spaces, `q must be at most 200 characters`: after trimming, `q must be given once, as text`: q repeated, `type must be all, messages, contacts or notes`, `limit must be an integer between 1 and 50`, `invalid cursor`: not a next_cursor this route gave; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    NotesController_mentions: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MentionResponse"][];
                };
            };
            /** @description `mentions need a signed-in user`: called with an API key; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    NotesController_list: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoteResponse"][];
                };
            };
            /** @description `invalid conversation id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    NotesController_create: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateNoteDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoteResponse"];
                };
            };
            /** @description `invalid conversation id`, `note body is required`, `note body is at most 10000 characters`, `mentions must be user ids of members of this workspace`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    NotesController_delete: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
                /** @description the note (`GET /api/conversations/{id}/notes`) */
                noteId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid conversation id`, `invalid note id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `only its author or an admin can delete a note`; `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else, `note not found`: unknown, or of another conversation */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    LabelsController_list: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabelResponse"][];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    LabelsController_create: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateLabelDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabelResponse"];
                };
            };
            /** @description `name is required (1 to 50 characters)`, `color must be a hex color like #1f6feb`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `a label with this name already exists`, `a workspace has at most 500 labels` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    LabelsController_delete: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid label id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `label not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    LabelsController_update: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateLabelDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LabelResponse"];
                };
            };
            /** @description `invalid label id`, `name is required (1 to 50 characters)`, `color must be a hex color like #1f6feb`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `label not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `a label with this name already exists` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    LabellingController_labelConversation: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApplyLabelDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationResponse"];
                };
            };
            /** @description `invalid conversation id`, `label_id must be a label id`, `label not found`: `label_id` names no label of this workspace; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    LabellingController_unlabelConversation: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
                /** @description the label (`GET /api/labels`); one the row does not carry changes nothing */
                labelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationResponse"];
                };
            };
            /** @description `invalid conversation id`, `invalid label id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    LabellingController_labelContact: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ApplyLabelDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactResponse"];
                };
            };
            /** @description `invalid contact id`, `label_id must be a label id`, `label not found`: `label_id` names no label of this workspace; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `contact not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    LabellingController_unlabelContact: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
                /** @description the label (`GET /api/labels`); one the row does not carry changes nothing */
                labelId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ContactResponse"];
                };
            };
            /** @description `invalid contact id`, `invalid label id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `contact not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    SendingController_limits: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendLimitsResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    SendingController_update: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateSendLimitsDto"];
            };
        };
        responses: {
            /** @description The settings afterwards */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendLimitsResponse"];
                };
            };
            /** @description `request body must be a JSON object`, `unknown field <name>`, `typing must be one of automations, all, off`, `min_gap_ms must be an integer from 200 to 600000`, `jitter_ms must be an integer from 0 to 600000`, `per_minute must be an integer from 1 to 300`, `burst must be an integer from 1 to 50`, `first_contacts_per_day must be an integer from 1 to 1000`, `unanswered_per_chat must be an integer from 1 to 100`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    SendingController_list: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SendQueueResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MediaController_get: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description The workspace the media belongs to: the caller's own (another workspace's media is 404) */
                workspace: string;
                /** @description The file name from the message's `media_url` */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    /** @description `inline` for an allowlisted type without a file name, else `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<RFC 5987>` */
                    "Content-Disposition"?: string;
                    /** @description `default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox` */
                    "Content-Security-Policy"?: string;
                    /** @description `nosniff` */
                    "X-Content-Type-Options"?: string;
                    /** @description `same-origin` */
                    "Cross-Origin-Resource-Policy"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "image/*": string;
                    "audio/*": string;
                    "video/*": string;
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `media not found`: unknown file, malformed name, another workspace's media, or (an agent) media of a conversation the agent cannot see */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ChatController_connect: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session state once the first QR code is available or the session is connected (waits a few seconds at most) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionStateResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The session could not be started; `error` carries the reason (for example no worker process running, or `could not reach WhatsApp: <cause>; call POST /api/chat/connect to try again` when the socket got no answer before the first QR code); `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ChatController_pairingCode: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PairingCodeRequestDto"];
            };
        };
        responses: {
            /** @description The code to type on the phone, and until when the session waits for it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PairingCodeResponse"];
                };
            };
            /** @description `invalid phone number`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `the number is already linked: a pairing code only links a number that is not (disconnect it first to link another)` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The session could not be started, or WhatsApp did not offer a registration in time; `error` says which; `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ChatController_stop: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session state afterwards (not connected; `logged_in` unchanged) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionStateResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The worker holding the session did not answer; `error` says so (retry); `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ChatController_restart: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description As connect: the state once connected or a QR code is available (waits a few seconds at most) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionStateResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description As connect: the session could not be started, or its worker did not answer; `error` says why; `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ChatController_qr: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Without a code (not started, already linked, expired, a pairing code asked for instead, or stopped before a code was shown): `pending: false`, `image: ""` and `error`/`message` saying to call `POST /api/chat/connect` first, that the previous QR code expired, that a pairing code waits, or why the session stopped (e.g. `could not reach WhatsApp: …`, or WhatsApp's passkey check) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QrCodeResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ChatController_status: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionStatusResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ChatController_disconnect: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session state afterwards (not linked) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionStateResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description The worker holding the session did not answer; `error` says so (retry); `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    PasskeyController_link: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyLinkResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `no passkey check is running for this number`, `the passkey went to WhatsApp already: wait for the phone, then confirm its code (POST /api/chat/passkey/confirm)`, `the passkey ceremony is off on this service (CHAT_PASSKEY_CEREMONY)` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    PasskeyController_confirm: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasskeyConfirmDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyStepResponse"];
                };
            };
            /** @description `the code given does not match the one derived for this link (another code on the phone means the link is not safe), so nothing was linked: call POST /api/chat/connect to try again`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `no passkey check is running for this number` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    PasskeyController_challenge: {
        parameters: {
            query?: never;
            header: {
                /** @description The one-time token of the link (from the fragment of the URL `POST /api/chat/passkey/link` gave) */
                "X-Passkey-Token": string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                workspace_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyChallengeResponse"];
                };
            };
            /** @description `invalid workspace id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `passkey link missing`, `invalid passkey link`, `passkey link expired: open WhatsApp Web from the Console again`, `passkey link already used` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `passkey link belongs to a different workspace` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `no passkey check is running for this number` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    PasskeyController_assertion: {
        parameters: {
            query?: never;
            header: {
                /** @description The one-time token of the link (from the fragment of the URL `POST /api/chat/passkey/link` gave) */
                "X-Passkey-Token": string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                workspace_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PasskeyAssertionDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PasskeyStepResponse"];
                };
            };
            /** @description `invalid workspace id`, `assertion challenge does not match`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `passkey link missing`, `invalid passkey link`, `passkey link expired: open WhatsApp Web from the Console again`, `passkey link already used` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `passkey link belongs to a different workspace` */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `no passkey check is running for this number` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`, with `Retry-After` in seconds */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ScanProxyController_get: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScanProxyResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ScanProxyController_put: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutScanProxyDto"];
            };
        };
        responses: {
            /** @description The proxy as stored, its credential masked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ScanProxyResponse"];
                };
            };
            /** @description `url is required`, `url must be at most 2048 characters`, `url must be a proxy URL: http://, https:// or socks5://, then [user:password@]host[:port], e.g. socks5://user:password@proxy.example.com:1080`, `url must start with http://, https:// or socks5://`, `url must be the proxy's address only ([user:password@]host[:port]): no path, query or fragment`, `url has an invalid port: 1-65535`, `url must name the proxy host: a host name, an IPv4 address or an [IPv6] address`, `url has a user name or password that is not valid percent-encoding`, `a socks5:// user name and password are at most 255 bytes each`, `url has *** in place of a credential: give the real one`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ScanProxyController_remove: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `proxy not found`: the number has no proxy of its own */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    NumberCheckController_check: {
        parameters: {
            query: {
                /** @description The number, E.164 digits with or without `+`; spaces, dots, dashes and brackets are also accepted; anything else is 400 `invalid phone number` */
                phone: string;
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The answer, from the cache (`cached: true`) or from WhatsApp now */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NumberCheckResponse"];
                };
            };
            /** @description `invalid phone number`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `chat is not connected`: no open socket for a check that is not cached */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `too many attempts, please wait a minute and try again`: the workspace asked WhatsApp 30 times in this minute */
            429: {
                headers: {
                    /** @description Seconds until the minute resets */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `WhatsApp did not answer the number check in time`: WhatsApp gave no answer within 10 seconds (retry) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WebhooksController_stats: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookStatsResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WebhooksController_secret: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecretResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WebhooksController_rotate: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecretResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WebhooksController_list: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"][];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WebhooksController_create: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            /** @description `url must be an https:// URL`, `url must be an http:// or https:// URL`, `url is not a valid URL`, `url points to a private or internal address`, `url has *** in place of a credential: give the real one (*** keeps the stored one only in the URL exactly as stored, nothing else changed)`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `a workspace can have at most 10 webhooks` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WebhooksController_get: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            /** @description `invalid webhook id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `webhook not found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WebhooksController_remove: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid webhook id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `webhook not found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WebhooksController_update: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateWebhookDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookResponse"];
                };
            };
            /** @description `invalid webhook id`, `url must be an https:// URL`, `url must be an http:// or https:// URL`, `url is not a valid URL`, `url points to a private or internal address`, `url has *** in place of a credential: give the real one (*** keeps the stored one only in the URL exactly as stored, nothing else changed)`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `webhook not found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WebhooksController_log: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAttemptResponse"][];
                };
            };
            /** @description `invalid webhook id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `webhook not found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WebhooksController_retry: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAttemptResponse"];
                };
            };
            /** @description `invalid webhook id`, `invalid delivery id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `webhook not found`, `delivery not found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    WebhooksController_test: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryAttemptResponse"];
                };
            };
            /** @description `invalid webhook id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `webhook not found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    TemplatesController_list: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateResponse"][];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    TemplatesController_create: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateTemplateDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateResponse"];
                };
            };
            /** @description `template parameters must be numbered: {{1}}, {{2}}, …`, `template parameters must be numbered {{1}} to {{n}} without gaps`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `a template with this name and language already exists`, `chat is not connected`: the Cloud API number's token was refused; save its settings again */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `provider rejected the template request: <provider text>` with `provider_code`, `provider_subcode`, `provider_title` (Cloud API workspaces) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `the provider could not be reached`, `the provider did not answer in time` or `the provider connection broke off`: no answer from the provider (retry later); nothing was saved; `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    TemplatesController_sync: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateResponse"][];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `template sync needs a Cloud API number: this workspace has local templates only`, `chat is not connected`: the Cloud API number's token was refused; save its settings again */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `provider rejected the template request: <provider text>` with `provider_code`, `provider_subcode`, `provider_title` (Cloud API workspaces) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `the provider could not be reached`, `the provider did not answer in time` or `the provider connection broke off`: no answer from the provider (retry later); nothing was saved; `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    TemplatesController_delete: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid template id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `template not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `chat is not connected`: the Cloud API number's token was refused; save its settings again */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `provider rejected the template request: <provider text>` with `provider_code`, `provider_subcode`, `provider_title` (Cloud API workspaces) */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `the provider could not be reached`, `the provider did not answer in time` or `the provider connection broke off`: no answer from the provider (retry later); nothing was saved; `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    TemplatesController_update: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateTemplateDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateResponse"];
                };
            };
            /** @description `invalid template id`, `template parameters must be numbered: {{1}}, {{2}}, …`, `template parameters must be numbered {{1}} to {{n}} without gaps`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `template not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `a template with this name and language already exists`, `a provider's template cannot be changed here: edit it at the provider, then sync` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AutomationsController_list: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationResponse"][];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AutomationsController_create: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateAutomationDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationResponse"];
                };
            };
            /** @description an invalid condition or action, named with its place and what is allowed, e.g. `conditions[0].field: unknown field "foo" (one of content, chat_phone, is_group, message_type)`, `actions[1].type: unknown action "email" (one of reply, reply_template, assign, answer_from_knowledge, mark_read, add_label, set_status)`, `conditions[2].value: Invalid regular expression: /(/i: Unterminated group`, `actions[0]: template not found`, `actions[0].label_id must be a label id`, `actions[0].label_id: label not found`, `actions[0].status must be open, pending, snoozed or closed`, `actions[0].snooze_minutes must be an integer from 1 to 525600 (required for status snoozed)`, `actions[0].snooze_minutes is only for status snoozed`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AutomationsController_delete: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid automation id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `automation not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    AutomationsController_update: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateAutomationDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AutomationResponse"];
                };
            };
            /** @description `invalid automation id`, an invalid condition or action, named with its place and what is allowed, e.g. `conditions[0].field: unknown field "foo" (one of content, chat_phone, is_group, message_type)`, `actions[1].type: unknown action "email" (one of reply, reply_template, assign, answer_from_knowledge, mark_read, add_label, set_status)`, `conditions[2].value: Invalid regular expression: /(/i: Unterminated group`, `actions[0]: template not found`, `actions[0].label_id must be a label id`, `actions[0].label_id: label not found`, `actions[0].status must be open, pending, snoozed or closed`, `actions[0].snooze_minutes must be an integer from 1 to 525600 (required for status snoozed)`, `actions[0].snooze_minutes is only for status snoozed`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `automation not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    KnowledgeController_list: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticleResponse"][];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    KnowledgeController_create: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateArticleDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticleResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    KnowledgeController_search: {
        parameters: {
            query: {
                /** @description Words to find (all of them), "a phrase", `or` between alternatives, `-word` to exclude; the first 500 characters count */
                q: string;
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticleHitResponse"][];
                };
            };
            /** @description `q is required: the words to search for`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    KnowledgeController_delete: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid knowledge article id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `knowledge article not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    KnowledgeController_update: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateArticleDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ArticleResponse"];
                };
            };
            /** @description `invalid knowledge article id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `knowledge article not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    QuickRepliesController_list: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuickReplyResponse"][];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    QuickRepliesController_create: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateQuickReplyDto"];
            };
        };
        responses: {
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuickReplyResponse"];
                };
            };
            /** @description `shortcut must be 1-32 lowercase letters, digits, - or _`, `body is required (1 to 4096 characters)`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `a quick reply with this shortcut already exists`, `a workspace has at most 500 quick replies` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    QuickRepliesController_delete: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `invalid quick reply id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `quick reply not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    QuickRepliesController_update: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateQuickReplyDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuickReplyResponse"];
                };
            };
            /** @description `invalid quick reply id`, `shortcut must be 1-32 lowercase letters, digits, - or _`, `body is required (1 to 4096 characters)`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `quick reply not found`: unknown, deleted, or another workspace's */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `a quick reply with this shortcut already exists` */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    QuickRepliesController_render: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path: {
                /** @description A UUID; a malformed one is 400 `invalid … id` */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RenderQuickReplyDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RenderedQuickReplyResponse"];
                };
            };
            /** @description `invalid quick reply id`, `conversation_id must be a conversation id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `quick reply not found`: unknown, deleted, or another workspace's, `conversation not found`: unknown, another workspace's, or (for an agent) assigned to someone else */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MetaSettingsController_get: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Without a number: `phone_number_id` and `waba_id` null, `connected` and `token_set` false */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetaSettingsResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MetaSettingsController_put: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PutMetaSettingsDto"];
            };
        };
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetaSettingsResponse"];
                };
            };
            /** @description `phone_number_id must be the numeric id of the number (WhatsApp Manager or the API Setup page)`, `waba_id must be the numeric id of the WhatsApp Business Account`, `access_token must be a token without spaces`, `access_token is required`, `phone_number_id is not a number of waba_id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `this phone number is connected to another workspace`: another workspace has this phone_number_id */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `provider rejected the settings: <the provider's text>` with `provider_code`, `provider_subcode`, `provider_title` when the provider gave them, or `provider rejected the settings: <reason>` when it answered something that is not the Graph API */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `the provider could not be reached`, `the provider did not answer in time` or `the provider connection broke off`: no answer from the provider (retry later); nothing was saved; `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MetaSettingsController_remove: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `cloud channel settings not found` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MetaSignupController_config: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetaSignupConfigResponse"];
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `customer signup is awaiting platform configuration`: the platform's Meta app (META_APP_ID, META_APP_SECRET, META_CONFIG_ID) is not configured; `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MetaSignupController_signup: {
        parameters: {
            query?: {
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MetaSignupDto"];
            };
        };
        responses: {
            /** @description The saved settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MetaSettingsResponse"];
                };
            };
            /** @description `code must be the code the signup popup returned`, `waba_id must be the numeric id of the WhatsApp Business Account`, `phone_number_id must be the numeric id of the number (WhatsApp Manager or the API Setup page)`, `phone_number_id is not a number of waba_id`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"`; `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API keys cannot administer workspaces`; `admin required` (an agent) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `this phone number is connected to another workspace`: another workspace has this phone_number_id */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `provider rejected the signup: <the provider's text>` with `provider_code`, `provider_subcode`, `provider_title` when the provider gave them, or `provider rejected the signup: <reason>` when it answered something that is not the Graph API */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `customer signup is awaiting platform configuration`: the platform's Meta app (META_APP_ID, META_APP_SECRET, META_CONFIG_ID) is not configured, `the provider could not be reached`, `the provider did not answer in time` or `the provider connection broke off`: no answer from the provider (retry later); nothing was saved; `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MetaCallbackController_verify: {
        parameters: {
            query?: {
                /** @description echoed as the whole body */
                "hub.challenge"?: string;
                /** @description must equal META_VERIFY_TOKEN */
                "hub.verify_token"?: string;
                /** @description always `subscribe` */
                "hub.mode"?: "subscribe";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The `hub.challenge` text */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `webhook verification failed`: not `hub.mode=subscribe`, a wrong `hub.verify_token`, or META_VERIFY_TOKEN unset */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MetaCallbackController_receive: {
        parameters: {
            query?: never;
            header: {
                /** @description `sha256=<hex HMAC-SHA256(META_APP_SECRET, raw body)>` */
                "X-Hub-Signature-256": string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The provider's payload, read as raw bytes (any Content-Type; the provider sends `application/json`) */
        requestBody: {
            content: {
                "application/json": {
                    /** @example whatsapp_business_account */
                    object?: string;
                    entry?: {
                        id?: string;
                        changes?: Record<string, never>[];
                    }[];
                };
            };
        };
        responses: {
            /** @description Stored (or a retry of a stored callback); processing follows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OkResponse"];
                };
            };
            /** @description `malformed JSON body`, `callback payload must be a JSON object`, `JSON body nested too deeply (at most 64 levels)`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `malformed JSON body`; `request body must be a JSON object` (an array or a bare value); `JSON body must be valid UTF-8`; `JSON body nested too deeply (at most 64 levels)`, `JSON object has too many fields (at most 1000)`, `JSON body has too many fields (at most 10000)`; `text must be well-formed Unicode (no lone surrogates)`; `request body could not be decompressed (Content-Encoding: gzip)` (also deflate, br), `unsupported content encoding "…"` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `missing X-Hub-Signature-256 signature`, `invalid X-Hub-Signature-256 signature` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `payload too large`: above 4 MiB; `payload too large` */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `cloud channel callbacks are not configured (META_APP_SECRET)`; `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    MetricsController_get: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Prometheus text format 0.0.4 */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            /** @description `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8) */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized`: METRICS_TOKEN is set and the request does not carry it */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `not found` (`code: not_found`): METRICS_PORT is set, and metrics are served on that port only */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    ReportsController_conversations: {
        parameters: {
            query?: {
                /** @description IANA time zone the days are counted in (a name of the tz database or one of its aliases); `timezone` answers its canonical name. */
                tz?: string;
                /** @description Last day, inclusive (default: today in `tz`); at most 366 days in all */
                to?: string;
                /** @description First day, inclusive (default: 13 days before `to`) */
                from?: string;
                /** @description The same as `X-Tenant-ID`, for clients that cannot set headers (a browser `EventSource`). */
                tenant?: string;
            };
            header?: {
                /** @description The workspace to act in. With an API key optional (the key acts in its own workspace; a different id is 403 `API key belongs to a different workspace`); with a session required, here or as `?tenant=` (400 `workspace required (X-Tenant-ID)`). */
                "X-Tenant-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationReportResponse"];
                };
            };
            /** @description `from must be a date like 2026-11-22`, `to must be a date like 2026-11-22`, `from must not be after to`, `the range must be at most 366 days`, `tz must be an IANA time zone such as Europe/Berlin`; invalid input: a readable message naming each problem (the first ten; the rest counted); `request body must be JSON (Content-Type: application/json)` (a body with another Content-Type); `text must not contain NUL characters (\u0000)`; `malformed URL encoding` (a query string whose escapes are not UTF-8); `workspace required (X-Tenant-ID)` (a session without a workspace), `invalid workspace id` */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `unauthorized` (no credentials); `invalid or expired API key` */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `subscription required` with `code: "payment_required"` (only when subscriptions are enforced) */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `only owners and admins can see reports`: an agent; `API key belongs to a different workspace`; `forbidden` (not a member); `cross-site request refused: origin not allowed` (a browser request that changes something, from another site); `API key is read-only` (a read key on a method other than GET) */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `internal server error`: unexpected (retry with backoff) */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
            /** @description `service temporarily unavailable, please retry`: Postgres or Redis is unreachable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorResponse"];
                };
            };
        };
    };
    webhook_scan_chat: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type */
                "X-Svc-Event": "scan.chat";
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_` included) */
                "X-Hub-Signature-256": string;
                /** @description The delivery id: the same on every retry and replay; deduplicate on it */
                "webhook-id": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the secret’s decoded bytes (Standard Webhooks) */
                "webhook-signature": string;
                /** @description The sender */
                "User-Agent": "whatsapp-inbox-webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "message.inbound",
                 *       "channel": "scan",
                 *       "workspace_id": "6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d",
                 *       "conversation_id": "2a7c9e4f-1b3d-4e5f-8a6b-7c8d9e0f1a2b",
                 *       "seq": 41,
                 *       "chat_message_id": "3EB0C767D26A1D8F4F21",
                 *       "chat_jid": "4915123456789@s.whatsapp.net",
                 *       "sender_jid": "4915123456789@s.whatsapp.net",
                 *       "sender_name": "Ada",
                 *       "content": "Hi there",
                 *       "message_type": "text",
                 *       "kind": "text",
                 *       "media_url": "",
                 *       "mime_type": "",
                 *       "file_name": "",
                 *       "file_size": 0,
                 *       "timestamp": "2026-01-01T12:00:00Z",
                 *       "is_group": false,
                 *       "chat_name": "Ada",
                 *       "chat_phone": "4915123456789",
                 *       "duration_s": 0,
                 *       "quoted_message_id": "",
                 *       "mentions": [],
                 *       "location": null,
                 *       "contacts": null,
                 *       "poll": null,
                 *       "reply": null
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Always `message.inbound`
                     * @constant
                     */
                    event: "message.inbound";
                    /**
                     * @description Always `scan`
                     * @constant
                     */
                    channel: "scan";
                    /**
                     * Format: uuid
                     * @description The workspace
                     */
                    workspace_id: string;
                    /**
                     * Format: uuid
                     * @description The conversation
                     */
                    conversation_id: string;
                    /** @description The message's `seq` in its conversation (0 if none) */
                    seq: number;
                    /** @description The channel's message id: deduplicate on it */
                    chat_message_id: string;
                    /** @description The chat jid */
                    chat_jid: string;
                    /** @description Who wrote it */
                    sender_jid: string;
                    /** @description Their push name, or empty */
                    sender_name: string;
                    /** @description Text, or the caption of media */
                    content: string;
                    /**
                     * @description The coarse class
                     * @enum {string}
                     */
                    message_type: "text" | "image" | "document";
                    /** @description What the message is, precisely */
                    kind: string;
                    /** @description Path of stored media, or empty */
                    media_url: string;
                    /** @description Media MIME type, or empty */
                    mime_type: string;
                    /** @description Document file name, or empty */
                    file_name: string;
                    /** @description Media size in bytes, or 0 */
                    file_size: number;
                    /**
                     * Format: date-time
                     * @description The message's time, RFC 3339 UTC to the second
                     */
                    timestamp: string;
                    /** @description A group chat */
                    is_group: boolean;
                    /** @description The chat name, or empty */
                    chat_name: string;
                    /** @description The phone of a one-to-one chat, or empty */
                    chat_phone: string;
                    /** @description Playing time in whole seconds, or 0 */
                    duration_s: number;
                    /** @description The `chat_message_id` this one replies to, or empty */
                    quoted_message_id: string;
                    /** @description Jids mentioned */
                    mentions: string[];
                    /** @description A location, else null */
                    location: Record<string, never> | null;
                    /** @description Contact cards, else null */
                    contacts: Record<string, never>[] | null;
                    /** @description A poll, else null */
                    poll: Record<string, never> | null;
                    /** @description The choice this message answers, else null */
                    reply: Record<string, never> | null;
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery (the body is ignored); anything else is retried with backoff */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_meta_chat: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type */
                "X-Svc-Event": "meta.chat";
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_` included) */
                "X-Hub-Signature-256": string;
                /** @description The delivery id: the same on every retry and replay; deduplicate on it */
                "webhook-id": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the secret’s decoded bytes (Standard Webhooks) */
                "webhook-signature": string;
                /** @description The sender */
                "User-Agent": "whatsapp-inbox-webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "object": "whatsapp_business_account",
                 *       "entry": [
                 *         {
                 *           "id": "102290129340398",
                 *           "changes": [
                 *             {
                 *               "field": "messages",
                 *               "value": {
                 *                 "messaging_product": "whatsapp"
                 *               }
                 *             }
                 *           ]
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": {
                    /** @description Always `whatsapp_business_account` */
                    object: string;
                    /** @description The callback entries */
                    entry: Record<string, never>[];
                } & {
                    [key: string]: unknown;
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery (the body is ignored); anything else is retried with backoff */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_message_status: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type */
                "X-Svc-Event": "message.status";
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_` included) */
                "X-Hub-Signature-256": string;
                /** @description The delivery id: the same on every retry and replay; deduplicate on it */
                "webhook-id": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the secret’s decoded bytes (Standard Webhooks) */
                "webhook-signature": string;
                /** @description The sender */
                "User-Agent": "whatsapp-inbox-webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "message.status",
                 *       "channel": "scan",
                 *       "workspace_id": "6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d",
                 *       "timestamp": "2026-01-01T12:00:05Z",
                 *       "conversation_id": "2a7c9e4f-1b3d-4e5f-8a6b-7c8d9e0f1a2b",
                 *       "message_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "chat_message_id": "3EB0C767D26A1D8F4F21",
                 *       "chat_jid": "4915123456789@s.whatsapp.net",
                 *       "is_group": false,
                 *       "seq": 42,
                 *       "direction": "outbound",
                 *       "sender_jid": "4915111111111@s.whatsapp.net",
                 *       "sender_name": "",
                 *       "message_type": "text",
                 *       "kind": "text",
                 *       "content": "Hello",
                 *       "media_url": "",
                 *       "mime_type": "",
                 *       "file_name": "",
                 *       "file_size": 0,
                 *       "duration_s": 0,
                 *       "quoted_message_id": "",
                 *       "quoted_id": null,
                 *       "mentions": [],
                 *       "location": null,
                 *       "contacts": null,
                 *       "poll": null,
                 *       "reply": null,
                 *       "reactions": [],
                 *       "edited": false,
                 *       "deleted": false,
                 *       "status": "delivered",
                 *       "error": "",
                 *       "sent_at": "2026-01-01T12:00:00Z",
                 *       "previous_status": "sent"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The type name itself (the `X-Svc-Event` header)
                     * @constant
                     */
                    event: "message.status";
                    /**
                     * @description The channel of the number concerned
                     * @enum {string}
                     */
                    channel: "scan" | "meta";
                    /**
                     * Format: uuid
                     * @description The workspace
                     */
                    workspace_id: string;
                    /**
                     * Format: date-time
                     * @description When the change happened, RFC 3339 UTC to the second
                     */
                    timestamp: string;
                    /**
                     * Format: uuid
                     * @description The conversation
                     */
                    conversation_id: string;
                    /**
                     * Format: uuid
                     * @description The API message id (the REST message `id`)
                     */
                    message_id: string;
                    /** @description The channel's message id ('' before the channel gave one) */
                    chat_message_id: string;
                    /** @description The conversation's chat jid */
                    chat_jid: string;
                    /** @description The conversation is a group chat */
                    is_group: boolean;
                    /** @description The message's `seq` in its conversation: strictly increasing, gap-free for new messages (0 if none) */
                    seq: number;
                    /**
                     * @description `inbound` or `outbound`
                     * @enum {string}
                     */
                    direction: "inbound" | "outbound";
                    /** @description Who wrote it */
                    sender_jid: string | null;
                    /** @description May be empty */
                    sender_name: string;
                    /**
                     * @description The coarse class: `text`, `image` or `document`
                     * @enum {string}
                     */
                    message_type: "text" | "image" | "document";
                    /** @description What the message is, precisely (`text`, `image`, `video`, `audio`, `voice`, `document`, `sticker`, `location`, `contacts`, `poll`, `unsupported`) */
                    kind: string;
                    /** @description Text, or the caption of media */
                    content: string;
                    /** @description Path of stored media, or empty */
                    media_url: string;
                    /** @description Media MIME type, or empty */
                    mime_type: string;
                    /** @description Document file name, or empty */
                    file_name: string;
                    /** @description Media size in bytes, or 0 */
                    file_size: number;
                    /** @description Playing time in whole seconds, or 0 */
                    duration_s: number;
                    /** @description The `chat_message_id` of the message this one replies to, or empty */
                    quoted_message_id: string;
                    /**
                     * Format: uuid
                     * @description Our `id` of the quoted message, when the inbox holds it
                     */
                    quoted_id: string | null;
                    /** @description Jids the message mentions */
                    mentions: string[];
                    /** @description A location message: as in the REST message, else null */
                    location: Record<string, never> | null;
                    /** @description Contact cards, else null */
                    contacts: Record<string, never>[] | null;
                    /** @description A poll, else null */
                    poll: Record<string, never> | null;
                    /** @description The button or list choice this message answers, else null */
                    reply: Record<string, never> | null;
                    /** @description The reactions on the message, as in the REST message */
                    reactions: Record<string, never>[];
                    /** @description The message was edited */
                    edited: boolean;
                    /** @description The message was revoked */
                    deleted: boolean;
                    /**
                     * @description The new status; `played`: a voice note, audio or video was played
                     * @enum {string}
                     */
                    status: "sent" | "delivered" | "read" | "played" | "failed";
                    /** @description The channel's reason with `failed`, else empty */
                    error: string;
                    /**
                     * Format: date-time
                     * @description The message's own time (the REST `timestamp`), RFC 3339
                     */
                    sent_at: string;
                    /** @description The stored status before, or empty */
                    previous_status: string;
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery (the body is ignored); anything else is retried with backoff */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_message_sent: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type */
                "X-Svc-Event": "message.sent";
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_` included) */
                "X-Hub-Signature-256": string;
                /** @description The delivery id: the same on every retry and replay; deduplicate on it */
                "webhook-id": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the secret’s decoded bytes (Standard Webhooks) */
                "webhook-signature": string;
                /** @description The sender */
                "User-Agent": "whatsapp-inbox-webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "message.sent",
                 *       "channel": "scan",
                 *       "workspace_id": "6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d",
                 *       "timestamp": "2026-01-01T12:00:05Z",
                 *       "conversation_id": "2a7c9e4f-1b3d-4e5f-8a6b-7c8d9e0f1a2b",
                 *       "message_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "chat_message_id": "3EB0C767D26A1D8F4F21",
                 *       "chat_jid": "4915123456789@s.whatsapp.net",
                 *       "is_group": false,
                 *       "seq": 42,
                 *       "direction": "outbound",
                 *       "sender_jid": "4915111111111@s.whatsapp.net",
                 *       "sender_name": "",
                 *       "message_type": "text",
                 *       "kind": "text",
                 *       "content": "Hello",
                 *       "media_url": "",
                 *       "mime_type": "",
                 *       "file_name": "",
                 *       "file_size": 0,
                 *       "duration_s": 0,
                 *       "quoted_message_id": "",
                 *       "quoted_id": null,
                 *       "mentions": [],
                 *       "location": null,
                 *       "contacts": null,
                 *       "poll": null,
                 *       "reply": null,
                 *       "reactions": [],
                 *       "edited": false,
                 *       "deleted": false,
                 *       "status": "pending",
                 *       "error": "",
                 *       "sent_at": "2026-01-01T12:00:00Z",
                 *       "source": "api"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The type name itself (the `X-Svc-Event` header)
                     * @constant
                     */
                    event: "message.sent";
                    /**
                     * @description The channel of the number concerned
                     * @enum {string}
                     */
                    channel: "scan" | "meta";
                    /**
                     * Format: uuid
                     * @description The workspace
                     */
                    workspace_id: string;
                    /**
                     * Format: date-time
                     * @description When the change happened, RFC 3339 UTC to the second
                     */
                    timestamp: string;
                    /**
                     * Format: uuid
                     * @description The conversation
                     */
                    conversation_id: string;
                    /**
                     * Format: uuid
                     * @description The API message id (the REST message `id`)
                     */
                    message_id: string;
                    /** @description The channel's message id ('' before the channel gave one) */
                    chat_message_id: string;
                    /** @description The conversation's chat jid */
                    chat_jid: string;
                    /** @description The conversation is a group chat */
                    is_group: boolean;
                    /** @description The message's `seq` in its conversation: strictly increasing, gap-free for new messages (0 if none) */
                    seq: number;
                    /**
                     * @description `inbound` or `outbound`
                     * @enum {string}
                     */
                    direction: "inbound" | "outbound";
                    /** @description Who wrote it */
                    sender_jid: string | null;
                    /** @description May be empty */
                    sender_name: string;
                    /**
                     * @description The coarse class: `text`, `image` or `document`
                     * @enum {string}
                     */
                    message_type: "text" | "image" | "document";
                    /** @description What the message is, precisely (`text`, `image`, `video`, `audio`, `voice`, `document`, `sticker`, `location`, `contacts`, `poll`, `unsupported`) */
                    kind: string;
                    /** @description Text, or the caption of media */
                    content: string;
                    /** @description Path of stored media, or empty */
                    media_url: string;
                    /** @description Media MIME type, or empty */
                    mime_type: string;
                    /** @description Document file name, or empty */
                    file_name: string;
                    /** @description Media size in bytes, or 0 */
                    file_size: number;
                    /** @description Playing time in whole seconds, or 0 */
                    duration_s: number;
                    /** @description The `chat_message_id` of the message this one replies to, or empty */
                    quoted_message_id: string;
                    /**
                     * Format: uuid
                     * @description Our `id` of the quoted message, when the inbox holds it
                     */
                    quoted_id: string | null;
                    /** @description Jids the message mentions */
                    mentions: string[];
                    /** @description A location message: as in the REST message, else null */
                    location: Record<string, never> | null;
                    /** @description Contact cards, else null */
                    contacts: Record<string, never>[] | null;
                    /** @description A poll, else null */
                    poll: Record<string, never> | null;
                    /** @description The button or list choice this message answers, else null */
                    reply: Record<string, never> | null;
                    /** @description The reactions on the message, as in the REST message */
                    reactions: Record<string, never>[];
                    /** @description The message was edited */
                    edited: boolean;
                    /** @description The message was revoked */
                    deleted: boolean;
                    /** @description The delivery status (`pending`, `sent`, `delivered`, `read`, `failed`; inbound: `received`) */
                    status: string;
                    /** @description The channel's failure reason, else empty */
                    error: string | null;
                    /**
                     * Format: date-time
                     * @description The message's own time (the REST `timestamp`), RFC 3339
                     */
                    sent_at: string;
                    /**
                     * @description Who sent it
                     * @enum {string}
                     */
                    source: "api" | "console" | "automation" | "phone";
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery (the body is ignored); anything else is retried with backoff */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_message_updated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type */
                "X-Svc-Event": "message.updated";
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_` included) */
                "X-Hub-Signature-256": string;
                /** @description The delivery id: the same on every retry and replay; deduplicate on it */
                "webhook-id": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the secret’s decoded bytes (Standard Webhooks) */
                "webhook-signature": string;
                /** @description The sender */
                "User-Agent": "whatsapp-inbox-webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "message.updated",
                 *       "channel": "scan",
                 *       "workspace_id": "6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d",
                 *       "timestamp": "2026-01-01T12:00:05Z",
                 *       "conversation_id": "2a7c9e4f-1b3d-4e5f-8a6b-7c8d9e0f1a2b",
                 *       "message_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "chat_message_id": "3EB0C767D26A1D8F4F21",
                 *       "chat_jid": "4915123456789@s.whatsapp.net",
                 *       "is_group": false,
                 *       "seq": 42,
                 *       "direction": "outbound",
                 *       "sender_jid": "4915111111111@s.whatsapp.net",
                 *       "sender_name": "",
                 *       "message_type": "text",
                 *       "kind": "text",
                 *       "content": "Hello!",
                 *       "media_url": "",
                 *       "mime_type": "",
                 *       "file_name": "",
                 *       "file_size": 0,
                 *       "duration_s": 0,
                 *       "quoted_message_id": "",
                 *       "quoted_id": null,
                 *       "mentions": [],
                 *       "location": null,
                 *       "contacts": null,
                 *       "poll": null,
                 *       "reply": null,
                 *       "reactions": [],
                 *       "edited": true,
                 *       "deleted": false,
                 *       "status": "sent",
                 *       "error": "",
                 *       "sent_at": "2026-01-01T12:00:00Z",
                 *       "previous_content": "Hello",
                 *       "edited_by": ""
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The type name itself (the `X-Svc-Event` header)
                     * @constant
                     */
                    event: "message.updated";
                    /**
                     * @description The channel of the number concerned
                     * @enum {string}
                     */
                    channel: "scan" | "meta";
                    /**
                     * Format: uuid
                     * @description The workspace
                     */
                    workspace_id: string;
                    /**
                     * Format: date-time
                     * @description When the change happened, RFC 3339 UTC to the second
                     */
                    timestamp: string;
                    /**
                     * Format: uuid
                     * @description The conversation
                     */
                    conversation_id: string;
                    /**
                     * Format: uuid
                     * @description The API message id (the REST message `id`)
                     */
                    message_id: string;
                    /** @description The channel's message id ('' before the channel gave one) */
                    chat_message_id: string;
                    /** @description The conversation's chat jid */
                    chat_jid: string;
                    /** @description The conversation is a group chat */
                    is_group: boolean;
                    /** @description The message's `seq` in its conversation: strictly increasing, gap-free for new messages (0 if none) */
                    seq: number;
                    /**
                     * @description `inbound` or `outbound`
                     * @enum {string}
                     */
                    direction: "inbound" | "outbound";
                    /** @description Who wrote it */
                    sender_jid: string | null;
                    /** @description May be empty */
                    sender_name: string;
                    /**
                     * @description The coarse class: `text`, `image` or `document`
                     * @enum {string}
                     */
                    message_type: "text" | "image" | "document";
                    /** @description What the message is, precisely (`text`, `image`, `video`, `audio`, `voice`, `document`, `sticker`, `location`, `contacts`, `poll`, `unsupported`) */
                    kind: string;
                    /** @description The new text */
                    content: string;
                    /** @description Path of stored media, or empty */
                    media_url: string;
                    /** @description Media MIME type, or empty */
                    mime_type: string;
                    /** @description Document file name, or empty */
                    file_name: string;
                    /** @description Media size in bytes, or 0 */
                    file_size: number;
                    /** @description Playing time in whole seconds, or 0 */
                    duration_s: number;
                    /** @description The `chat_message_id` of the message this one replies to, or empty */
                    quoted_message_id: string;
                    /**
                     * Format: uuid
                     * @description Our `id` of the quoted message, when the inbox holds it
                     */
                    quoted_id: string | null;
                    /** @description Jids the message mentions */
                    mentions: string[];
                    /** @description A location message: as in the REST message, else null */
                    location: Record<string, never> | null;
                    /** @description Contact cards, else null */
                    contacts: Record<string, never>[] | null;
                    /** @description A poll, else null */
                    poll: Record<string, never> | null;
                    /** @description The button or list choice this message answers, else null */
                    reply: Record<string, never> | null;
                    /** @description The reactions on the message, as in the REST message */
                    reactions: Record<string, never>[];
                    /** @description The message was edited */
                    edited: boolean;
                    /** @description The message was revoked */
                    deleted: boolean;
                    /** @description The delivery status (`pending`, `sent`, `delivered`, `read`, `failed`; inbound: `received`) */
                    status: string;
                    /** @description The channel's failure reason, else empty */
                    error: string | null;
                    /**
                     * Format: date-time
                     * @description The message's own time (the REST `timestamp`), RFC 3339
                     */
                    sent_at: string;
                    /** @description The text before, or empty */
                    previous_content: string;
                    /** @description Empty for our own edit through the API, else the editor's jid */
                    edited_by: string;
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery (the body is ignored); anything else is retried with backoff */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_message_deleted: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type */
                "X-Svc-Event": "message.deleted";
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_` included) */
                "X-Hub-Signature-256": string;
                /** @description The delivery id: the same on every retry and replay; deduplicate on it */
                "webhook-id": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the secret’s decoded bytes (Standard Webhooks) */
                "webhook-signature": string;
                /** @description The sender */
                "User-Agent": "whatsapp-inbox-webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "message.deleted",
                 *       "channel": "scan",
                 *       "workspace_id": "6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d",
                 *       "timestamp": "2026-01-01T12:00:05Z",
                 *       "conversation_id": "2a7c9e4f-1b3d-4e5f-8a6b-7c8d9e0f1a2b",
                 *       "message_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "chat_message_id": "3EB0C767D26A1D8F4F21",
                 *       "chat_jid": "4915123456789@s.whatsapp.net",
                 *       "is_group": false,
                 *       "seq": 42,
                 *       "direction": "outbound",
                 *       "sender_jid": "4915111111111@s.whatsapp.net",
                 *       "sender_name": "",
                 *       "message_type": "text",
                 *       "kind": "text",
                 *       "content": "Hello",
                 *       "media_url": "",
                 *       "mime_type": "",
                 *       "file_name": "",
                 *       "file_size": 0,
                 *       "duration_s": 0,
                 *       "quoted_message_id": "",
                 *       "quoted_id": null,
                 *       "mentions": [],
                 *       "location": null,
                 *       "contacts": null,
                 *       "poll": null,
                 *       "reply": null,
                 *       "reactions": [],
                 *       "edited": false,
                 *       "deleted": true,
                 *       "status": "sent",
                 *       "error": "",
                 *       "sent_at": "2026-01-01T12:00:00Z",
                 *       "deleted_by": "4915123456789@s.whatsapp.net"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The type name itself (the `X-Svc-Event` header)
                     * @constant
                     */
                    event: "message.deleted";
                    /**
                     * @description The channel of the number concerned
                     * @enum {string}
                     */
                    channel: "scan" | "meta";
                    /**
                     * Format: uuid
                     * @description The workspace
                     */
                    workspace_id: string;
                    /**
                     * Format: date-time
                     * @description When the change happened, RFC 3339 UTC to the second
                     */
                    timestamp: string;
                    /**
                     * Format: uuid
                     * @description The conversation
                     */
                    conversation_id: string;
                    /**
                     * Format: uuid
                     * @description The API message id (the REST message `id`)
                     */
                    message_id: string;
                    /** @description The channel's message id ('' before the channel gave one) */
                    chat_message_id: string;
                    /** @description The conversation's chat jid */
                    chat_jid: string;
                    /** @description The conversation is a group chat */
                    is_group: boolean;
                    /** @description The message's `seq` in its conversation: strictly increasing, gap-free for new messages (0 if none) */
                    seq: number;
                    /**
                     * @description `inbound` or `outbound`
                     * @enum {string}
                     */
                    direction: "inbound" | "outbound";
                    /** @description Who wrote it */
                    sender_jid: string | null;
                    /** @description May be empty */
                    sender_name: string;
                    /**
                     * @description The coarse class: `text`, `image` or `document`
                     * @enum {string}
                     */
                    message_type: "text" | "image" | "document";
                    /** @description What the message is, precisely (`text`, `image`, `video`, `audio`, `voice`, `document`, `sticker`, `location`, `contacts`, `poll`, `unsupported`) */
                    kind: string;
                    /** @description Text, or the caption of media */
                    content: string;
                    /** @description Path of stored media, or empty */
                    media_url: string;
                    /** @description Media MIME type, or empty */
                    mime_type: string;
                    /** @description Document file name, or empty */
                    file_name: string;
                    /** @description Media size in bytes, or 0 */
                    file_size: number;
                    /** @description Playing time in whole seconds, or 0 */
                    duration_s: number;
                    /** @description The `chat_message_id` of the message this one replies to, or empty */
                    quoted_message_id: string;
                    /**
                     * Format: uuid
                     * @description Our `id` of the quoted message, when the inbox holds it
                     */
                    quoted_id: string | null;
                    /** @description Jids the message mentions */
                    mentions: string[];
                    /** @description A location message: as in the REST message, else null */
                    location: Record<string, never> | null;
                    /** @description Contact cards, else null */
                    contacts: Record<string, never>[] | null;
                    /** @description A poll, else null */
                    poll: Record<string, never> | null;
                    /** @description The button or list choice this message answers, else null */
                    reply: Record<string, never> | null;
                    /** @description The reactions on the message, as in the REST message */
                    reactions: Record<string, never>[];
                    /** @description The message was edited */
                    edited: boolean;
                    /** @description The message was revoked */
                    deleted: boolean;
                    /** @description The delivery status (`pending`, `sent`, `delivered`, `read`, `failed`; inbound: `received`) */
                    status: string;
                    /** @description The channel's failure reason, else empty */
                    error: string | null;
                    /**
                     * Format: date-time
                     * @description The message's own time (the REST `timestamp`), RFC 3339
                     */
                    sent_at: string;
                    /** @description Empty when the workspace deleted it through the API, else the jid that revoked it */
                    deleted_by: string;
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery (the body is ignored); anything else is retried with backoff */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_message_reaction: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type */
                "X-Svc-Event": "message.reaction";
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_` included) */
                "X-Hub-Signature-256": string;
                /** @description The delivery id: the same on every retry and replay; deduplicate on it */
                "webhook-id": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the secret’s decoded bytes (Standard Webhooks) */
                "webhook-signature": string;
                /** @description The sender */
                "User-Agent": "whatsapp-inbox-webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "message.reaction",
                 *       "channel": "scan",
                 *       "workspace_id": "6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d",
                 *       "timestamp": "2026-01-01T12:00:05Z",
                 *       "conversation_id": "2a7c9e4f-1b3d-4e5f-8a6b-7c8d9e0f1a2b",
                 *       "message_id": "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
                 *       "chat_message_id": "3EB0C767D26A1D8F4F21",
                 *       "chat_jid": "4915123456789@s.whatsapp.net",
                 *       "is_group": false,
                 *       "seq": 42,
                 *       "direction": "outbound",
                 *       "sender_jid": "4915111111111@s.whatsapp.net",
                 *       "sender_name": "",
                 *       "message_type": "text",
                 *       "kind": "text",
                 *       "content": "Hello",
                 *       "media_url": "",
                 *       "mime_type": "",
                 *       "file_name": "",
                 *       "file_size": 0,
                 *       "duration_s": 0,
                 *       "quoted_message_id": "",
                 *       "quoted_id": null,
                 *       "mentions": [],
                 *       "location": null,
                 *       "contacts": null,
                 *       "poll": null,
                 *       "reply": null,
                 *       "reactions": [],
                 *       "edited": false,
                 *       "deleted": false,
                 *       "status": "sent",
                 *       "error": "",
                 *       "sent_at": "2026-01-01T12:00:00Z",
                 *       "emoji": "👍",
                 *       "reactor_jid": "4915123456789@s.whatsapp.net",
                 *       "removed": false
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The type name itself (the `X-Svc-Event` header)
                     * @constant
                     */
                    event: "message.reaction";
                    /**
                     * @description The channel of the number concerned
                     * @enum {string}
                     */
                    channel: "scan" | "meta";
                    /**
                     * Format: uuid
                     * @description The workspace
                     */
                    workspace_id: string;
                    /**
                     * Format: date-time
                     * @description When the change happened, RFC 3339 UTC to the second
                     */
                    timestamp: string;
                    /**
                     * Format: uuid
                     * @description The conversation
                     */
                    conversation_id: string;
                    /**
                     * Format: uuid
                     * @description The API message id (the REST message `id`)
                     */
                    message_id: string;
                    /** @description The channel's message id ('' before the channel gave one) */
                    chat_message_id: string;
                    /** @description The conversation's chat jid */
                    chat_jid: string;
                    /** @description The conversation is a group chat */
                    is_group: boolean;
                    /** @description The message's `seq` in its conversation: strictly increasing, gap-free for new messages (0 if none) */
                    seq: number;
                    /**
                     * @description `inbound` or `outbound`
                     * @enum {string}
                     */
                    direction: "inbound" | "outbound";
                    /** @description Who wrote it */
                    sender_jid: string | null;
                    /** @description May be empty */
                    sender_name: string;
                    /**
                     * @description The coarse class: `text`, `image` or `document`
                     * @enum {string}
                     */
                    message_type: "text" | "image" | "document";
                    /** @description What the message is, precisely (`text`, `image`, `video`, `audio`, `voice`, `document`, `sticker`, `location`, `contacts`, `poll`, `unsupported`) */
                    kind: string;
                    /** @description Text, or the caption of media */
                    content: string;
                    /** @description Path of stored media, or empty */
                    media_url: string;
                    /** @description Media MIME type, or empty */
                    mime_type: string;
                    /** @description Document file name, or empty */
                    file_name: string;
                    /** @description Media size in bytes, or 0 */
                    file_size: number;
                    /** @description Playing time in whole seconds, or 0 */
                    duration_s: number;
                    /** @description The `chat_message_id` of the message this one replies to, or empty */
                    quoted_message_id: string;
                    /**
                     * Format: uuid
                     * @description Our `id` of the quoted message, when the inbox holds it
                     */
                    quoted_id: string | null;
                    /** @description Jids the message mentions */
                    mentions: string[];
                    /** @description A location message: as in the REST message, else null */
                    location: Record<string, never> | null;
                    /** @description Contact cards, else null */
                    contacts: Record<string, never>[] | null;
                    /** @description A poll, else null */
                    poll: Record<string, never> | null;
                    /** @description The button or list choice this message answers, else null */
                    reply: Record<string, never> | null;
                    /** @description The reactions on the message, as in the REST message */
                    reactions: Record<string, never>[];
                    /** @description The message was edited */
                    edited: boolean;
                    /** @description The message was revoked */
                    deleted: boolean;
                    /** @description The delivery status (`pending`, `sent`, `delivered`, `read`, `failed`; inbound: `received`) */
                    status: string;
                    /** @description The channel's failure reason, else empty */
                    error: string | null;
                    /**
                     * Format: date-time
                     * @description The message's own time (the REST `timestamp`), RFC 3339
                     */
                    sent_at: string;
                    /** @description The reaction, empty when taken back */
                    emoji: string;
                    /** @description Who reacted */
                    reactor_jid: string;
                    /** @description The reaction was taken back */
                    removed: boolean;
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery (the body is ignored); anything else is retried with backoff */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_conversation_updated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type */
                "X-Svc-Event": "conversation.updated";
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_` included) */
                "X-Hub-Signature-256": string;
                /** @description The delivery id: the same on every retry and replay; deduplicate on it */
                "webhook-id": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the secret’s decoded bytes (Standard Webhooks) */
                "webhook-signature": string;
                /** @description The sender */
                "User-Agent": "whatsapp-inbox-webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "conversation.updated",
                 *       "channel": "scan",
                 *       "workspace_id": "6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d",
                 *       "timestamp": "2026-01-01T12:00:00Z",
                 *       "conversation_id": "2a7c9e4f-1b3d-4e5f-8a6b-7c8d9e0f1a2b",
                 *       "changes": [
                 *         "assignee"
                 *       ],
                 *       "previous_status": "open",
                 *       "previous_assignee_id": null,
                 *       "chat_jid": "4915123456789@s.whatsapp.net",
                 *       "chat_name": "Ada",
                 *       "chat_phone": "4915123456789",
                 *       "is_group": false,
                 *       "contact_id": null,
                 *       "assignee_id": "d4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70",
                 *       "status": "open",
                 *       "snoozed_until": null,
                 *       "label_ids": [],
                 *       "previous_label_ids": [],
                 *       "unread_count": 0,
                 *       "last_message_at": "2026-01-01T11:59:00Z",
                 *       "last_message_preview": "Hi there"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The type name itself (the `X-Svc-Event` header)
                     * @constant
                     */
                    event: "conversation.updated";
                    /**
                     * @description The channel of the number concerned
                     * @enum {string}
                     */
                    channel: "scan" | "meta";
                    /**
                     * Format: uuid
                     * @description The workspace
                     */
                    workspace_id: string;
                    /**
                     * Format: date-time
                     * @description When the change happened, RFC 3339 UTC to the second
                     */
                    timestamp: string;
                    /**
                     * Format: uuid
                     * @description The conversation (the REST conversation `id`)
                     */
                    conversation_id: string;
                    /** @description What changed */
                    changes: ("status" | "assignee" | "labels")[];
                    /** @description The status before */
                    previous_status: string;
                    /**
                     * Format: uuid
                     * @description The assignee before
                     */
                    previous_assignee_id: string | null;
                    /** @description The labels before (the same as `label_ids` unless `changes` has `labels`) */
                    previous_label_ids: string[];
                    /** @description The conversation's chat jid */
                    chat_jid: string;
                    /** @description The chat name */
                    chat_name: string | null;
                    /** @description The phone of a one-to-one chat */
                    chat_phone: string | null;
                    /** @description The conversation is a group chat */
                    is_group: boolean;
                    /**
                     * Format: uuid
                     * @description The contact record
                     */
                    contact_id: string | null;
                    /**
                     * Format: uuid
                     * @description The assignee after the change
                     */
                    assignee_id: string | null;
                    /** @description The status after the change (`open`, `pending`, `snoozed`, `closed`) */
                    status: string;
                    /**
                     * Format: date-time
                     * @description When a `snoozed` conversation opens again by itself; null for every other status
                     */
                    snoozed_until: string | null;
                    /** @description The labels on it after the change (`GET /api/labels` names them) */
                    label_ids: string[];
                    /** @description Unread inbound messages */
                    unread_count: number;
                    /**
                     * Format: date-time
                     * @description Time of the last message
                     */
                    last_message_at: string | null;
                    /** @description Start of the last message */
                    last_message_preview: string | null;
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery (the body is ignored); anything else is retried with backoff */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_session_status: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type */
                "X-Svc-Event": "session.status";
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_` included) */
                "X-Hub-Signature-256": string;
                /** @description The delivery id: the same on every retry and replay; deduplicate on it */
                "webhook-id": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the secret’s decoded bytes (Standard Webhooks) */
                "webhook-signature": string;
                /** @description The sender */
                "User-Agent": "whatsapp-inbox-webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "session.status",
                 *       "channel": "scan",
                 *       "workspace_id": "6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d",
                 *       "timestamp": "2026-01-01T12:00:00Z",
                 *       "state": "logged_out",
                 *       "previous_state": "connected",
                 *       "since": "2026-01-01T12:00:00Z",
                 *       "error": "the phone removed this linked device: link it again",
                 *       "connected": false,
                 *       "logged_in": false,
                 *       "jid": "",
                 *       "phone_number_id": ""
                 *     }
                 */
                "application/json": {
                    /**
                     * @description The type name itself (the `X-Svc-Event` header)
                     * @constant
                     */
                    event: "session.status";
                    /**
                     * @description The channel of the number concerned
                     * @enum {string}
                     */
                    channel: "scan" | "meta";
                    /**
                     * Format: uuid
                     * @description The workspace
                     */
                    workspace_id: string;
                    /**
                     * Format: date-time
                     * @description When the change happened, RFC 3339 UTC to the second
                     */
                    timestamp: string;
                    /** @description scan: the `state` of GET /api/chat/status (connected, reconnecting, logged_out, passkey_required, failed, stopped, …); meta: connected, disconnected, token_refused */
                    state: string;
                    /** @description The state before, or empty */
                    previous_state: string;
                    /**
                     * Format: date-time
                     * @description When this state began, RFC 3339
                     */
                    since: string;
                    /** @description The explanation when something needs a person, else empty */
                    error: string;
                    /** @description The number is connected */
                    connected: boolean;
                    /** @description scan: linked; meta: settings present */
                    logged_in: boolean;
                    /** @description scan: the linked number's jid, else empty */
                    jid: string;
                    /** @description meta: the Cloud number's id, else empty */
                    phone_number_id: string;
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery (the body is ignored); anything else is retried with backoff */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_webhook_test: {
        parameters: {
            query?: never;
            header: {
                /** @description The event type */
                "X-Svc-Event": "webhook.test";
                /** @description `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the whole secret string (`whsec_` included) */
                "X-Hub-Signature-256": string;
                /** @description The delivery id: the same on every retry and replay; deduplicate on it */
                "webhook-id": string;
                /** @description Unix seconds of this attempt */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">`, keyed with the secret’s decoded bytes (Standard Webhooks) */
                "webhook-signature": string;
                /** @description The sender */
                "User-Agent": "whatsapp-inbox-webhooks/1";
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "event": "webhook.test",
                 *       "workspace_id": "6f1c2b9e-3d4a-4f5b-8c7d-9e0f1a2b3c4d",
                 *       "webhook_id": "c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f",
                 *       "timestamp": "2026-01-01T12:00:00Z"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Always `webhook.test`
                     * @constant
                     */
                    event: "webhook.test";
                    /**
                     * Format: uuid
                     * @description The workspace
                     */
                    workspace_id: string;
                    /**
                     * Format: uuid
                     * @description The webhook
                     */
                    webhook_id: string;
                    /**
                     * Format: date-time
                     * @description When it was sent, RFC 3339
                     */
                    timestamp: string;
                };
            };
        };
        responses: {
            /** @description Any 2xx within 10 seconds acknowledges the delivery (the body is ignored); anything else is retried with backoff */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
