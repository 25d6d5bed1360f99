import type { FunctionComponent } from 'preact';
import { AcceptInvitePage } from './pages/auth/accept-invite.js';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/auth/password.js';
import { GoogleConfirmPage } from './pages/auth/google-confirm.js';
import { LoginPage } from './pages/auth/login.js';
import { SignupPage } from './pages/auth/signup.js';
import { VerifyEmailPage } from './pages/auth/verify-email.js';
import { ConnectPage } from './pages/connect.js';
import { AutomationsPage } from './pages/content/automations.js';
import { KnowledgePage } from './pages/content/knowledge.js';
import { TemplatesPage } from './pages/content/templates.js';
import { ContactsPage } from './pages/contacts.js';
import { InboxPage } from './pages/inbox/inbox.js';
import { MentionsPage } from './pages/mentions.js';
import { OverviewPage } from './pages/overview.js';
import { ReportsPage } from './pages/reports.js';
import { SearchPage } from './pages/search/search.js';
import { SettingsPage } from './pages/settings/settings.js';
import { WorkspacesPage } from './pages/workspaces.js';

/**
 * Who may open a page: `public` pages work signed out (the mailed links among them), `user` pages
 * need a session, `workspace` pages a session and a selected workspace.
 */
export type Access = 'public' | 'user' | 'workspace';

export interface Route {
  pattern: string;
  page: FunctionComponent<{ params: Record<string, string> }>;
  access: Access;
}

// The service answers index.html only on these routes' first segments (CONSOLE_ROUTE_ROOTS in
// src/infra/http/console-assets.ts; test/console/console-serving.spec.ts compares both lists).
export const ROUTES: Route[] = [
  { pattern: '/', page: OverviewPage, access: 'workspace' },
  { pattern: '/login', page: LoginPage, access: 'public' },
  { pattern: '/signup', page: SignupPage, access: 'public' },
  { pattern: '/signup/google', page: GoogleConfirmPage, access: 'public' },
  { pattern: '/verify-email', page: VerifyEmailPage, access: 'public' },
  { pattern: '/forgot-password', page: ForgotPasswordPage, access: 'public' },
  { pattern: '/reset-password', page: ResetPasswordPage, access: 'public' },
  { pattern: '/accept-invite', page: AcceptInvitePage, access: 'user' },
  { pattern: '/workspaces', page: WorkspacesPage, access: 'user' },
  { pattern: '/connect', page: ConnectPage, access: 'workspace' },
  { pattern: '/inbox', page: InboxPage, access: 'workspace' },
  { pattern: '/inbox/:id', page: InboxPage, access: 'workspace' },
  { pattern: '/mentions', page: MentionsPage, access: 'workspace' },
  { pattern: '/contacts', page: ContactsPage, access: 'workspace' },
  { pattern: '/templates', page: TemplatesPage, access: 'workspace' },
  { pattern: '/automations', page: AutomationsPage, access: 'workspace' },
  { pattern: '/knowledge', page: KnowledgePage, access: 'workspace' },
  { pattern: '/reports', page: ReportsPage, access: 'workspace' },
  { pattern: '/search', page: SearchPage, access: 'workspace' },
  { pattern: '/settings', page: SettingsPage, access: 'workspace' },
  { pattern: '/settings/:tab', page: SettingsPage, access: 'workspace' },
  { pattern: '/settings/:tab/:id', page: SettingsPage, access: 'workspace' },
];
