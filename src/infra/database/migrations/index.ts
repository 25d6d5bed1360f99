import { Init1764000000000 } from './1764000000000-Init.js';
import { Accounts1764000100000 } from './1764000100000-Accounts.js';
import { Inbox1764000300000 } from './1764000300000-Inbox.js';
import { PendingInviteUnique1764000400000 } from './1764000400000-PendingInviteUnique.js';
import { ScanAuthState1764000620000 } from './1764000620000-ScanAuthState.js';
import { ScanInbound1764000700000 } from './1764000700000-ScanInbound.js';
import { ScanSessions1764000800000 } from './1764000800000-ScanSessions.js';
import { GooglePendingSignups1764004000000 } from './1764004000000-GooglePendingSignups.js';

// Every migration in order. A new migration file must be added to this list.
export const MIGRATIONS: Function[] = [Init1764000000000, Accounts1764000100000, Inbox1764000300000, PendingInviteUnique1764000400000, ScanAuthState1764000620000, ScanInbound1764000700000, ScanSessions1764000800000, GooglePendingSignups1764004000000];
