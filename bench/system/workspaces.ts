// The service's side of the set-up, through its own API as a customer would: one owner (created
// with the CLI), one workspace per number with an active subscription, a scan.chat webhook to the
// benchmark's receiver, and the number linked by QR (connect, the QR's code scanned by the
// simulated phone, until the status says connected).
import type { ServiceCluster } from './service-processes.js';
import { waitFor } from './proc-stats.js';

export interface BenchWorkspace {
  id: string;
  phone: string;
}

const EMAIL = 'owner@bench-system.test';
const PASSWORD = 'bench system password';

export class ServiceApi {
  private constructor(
    private readonly cluster: ServiceCluster,
    private readonly cookie: string,
    readonly first: string,
  ) {}

  /** Creates the owner (and the first workspace) and signs in. */
  static async signIn(cluster: ServiceCluster): Promise<ServiceApi> {
    const created = (await cluster.cli(
      'create-workspace',
      '--name',
      'bench 0',
      '--owner-email',
      EMAIL,
      '--owner-password',
      PASSWORD,
      '--subscription',
      'active',
    )) as {
      workspace: { id: string };
    };
    const res = await fetch(`${cluster.api.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD }),
    });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('svc_session='));
    if (res.status !== 200 || !cookie) throw new Error(`login answered ${res.status}`);
    return new ServiceApi(cluster, cookie, created.workspace.id);
  }

  async request(method: string, path: string, tenant?: string, body?: unknown): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { Cookie: this.cookie };
    if (tenant) headers['X-Tenant-ID'] = tenant;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${this.cluster.api.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    try {
      return { status: res.status, body: JSON.parse(text) as unknown };
    } catch {
      return { status: res.status, body: text };
    }
  }

  /** `count` more workspaces of the owner, with an active subscription. */
  async createWorkspaces(count: number, offset: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const res = await this.request('POST', '/api/workspaces', undefined, { name: `bench ${offset + i}` });
      if (res.status !== 201) throw new Error(`creating a workspace answered ${res.status} ${JSON.stringify(res.body)}`);
      ids.push((res.body as { id: string }).id);
    }
    // The subscription is an operator's matter (the CLI's `subscription`): set for all at once.
    await this.cluster.db.query(`UPDATE workspaces SET subscription_status = 'active' WHERE id = ANY($1::uuid[])`, [ids]);
    return ids;
  }

  async addWebhook(workspace: string, url: string): Promise<void> {
    const res = await this.request('POST', '/api/webhooks', workspace, { url, events: ['scan.chat'] });
    if (res.status !== 201) throw new Error(`creating the webhook answered ${res.status} ${JSON.stringify(res.body)}`);
  }

  /** Connect → QR → the simulated phone scans it (the simulator's POST /scan) → connected. */
  async link(workspace: BenchWorkspace, simControl: string): Promise<void> {
    const connect = await this.request('POST', '/api/chat/connect', workspace.id);
    if (connect.status !== 200) throw new Error(`connect answered ${connect.status} ${JSON.stringify(connect.body)}`);
    const code = await waitFor('a QR code', async () => {
      const body = (await this.request('GET', '/api/chat/qr', workspace.id)).body as { pending?: boolean; code?: string };
      return body.pending ? body.code : undefined;
    });
    const scan = await fetch(`${simControl}/scan`, { method: 'POST', body: JSON.stringify({ qr: code, phone: workspace.phone }) });
    if (scan.status !== 200) throw new Error(`scan failed: ${await scan.text()}`);
    await this.connected(workspace);
  }

  /** Resolves once the workspace's session says connected. */
  async connected(workspace: BenchWorkspace): Promise<void> {
    await waitFor(
      `${workspace.phone} connected`,
      async () => ((await this.request('GET', '/api/chat/status', workspace.id)).body as { connected?: boolean }).connected === true,
      120_000,
      200,
    );
  }
}

/** Runs `work` over `items` with at most `concurrency` in flight. */
export const inBatches = async <T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
};
