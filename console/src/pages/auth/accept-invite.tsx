import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type ApiError } from '../../api/client.js';
import type { Workspace } from '../../api/types.js';
import { navigate, usePlace } from '../../router.js';
import { useSession } from '../../session.js';
import { Button, ErrorNote, Loading, PageHeader } from '../../ui/kit.js';

/** The page of the mailed `/accept-invite?token=…` link (signed in: the sign-in page sends you back here). */
export function AcceptInvitePage(): JSX.Element {
  const { query } = usePlace();
  const { me, refresh, selectWorkspace, signedOut } = useSession();
  const token = query.get('token') ?? '';
  const [state, setState] = useState<'working' | Workspace | ApiError>('working');
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    api
      .post<{ workspace: Workspace }>('/api/invites/accept', { token })
      .then(async ({ workspace }) => {
        await refresh();
        selectWorkspace(workspace.id);
        setState(workspace);
      })
      .catch((error: ApiError) => setState(error));
  }, [token, refresh, selectWorkspace]);

  const switchAccount = async (): Promise<void> => {
    await api.post('/api/auth/logout').catch(() => undefined);
    signedOut();
    navigate(`/login?next=${encodeURIComponent(`/accept-invite?token=${token}`)}`, { replace: true });
  };

  return (
    <section class="narrow">
      <PageHeader title="Join a workspace" />
      {!token ? (
        <ErrorNote>This link has no token. Open the link from the mail exactly as it was sent.</ErrorNote>
      ) : state === 'working' ? (
        <Loading label="Accepting the invitation…" />
      ) : 'message' in state ? (
        <>
          <ErrorNote error={state} />
          {state.status === 403 ? (
            <p>
              You are signed in as <strong>{me?.user.email}</strong>.{' '}
              <Button variant="link" onClick={() => void switchAccount()}>
                Sign in with the invited address instead
              </Button>
            </p>
          ) : (
            <p>Invitations work once and for 7 days. Ask an admin of the workspace to invite you again.</p>
          )}
        </>
      ) : (
        <>
          <p class="note note-success" role="status">
            You joined <strong>{state.name}</strong> as {state.role}.
          </p>
          <Button variant="primary" onClick={() => navigate('/')}>
            Open {state.name}
          </Button>
        </>
      )}
    </section>
  );
}
