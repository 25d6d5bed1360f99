import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { onCleanup, removeDir } from './cleanup.js';
import { freePort, waitFor } from './ports.js';

const run = promisify(execFile);

/** The newest PostgreSQL server binaries of the machine's packages (Debian: /usr/lib/postgresql/<v>/bin). */
function postgresBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (apt-get install postgresql)');
  return join(root, versions[0]!, 'bin');
}

/**
 * `initdb` and the server refuse to run as root, which is who CI and the developers are here: as
 * root, the cluster belongs to the `postgres` system user (from the postgresql package) and every
 * command runs through `runuser`. Anyone else runs them directly.
 */
function asOwner(command: string, args: string[]): [string, string[]] {
  if (userInfo().uid !== 0) return [command, args];
  return ['runuser', ['-u', 'postgres', '--', command, ...args]];
}

function ownerIds(): { uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres']).toString().trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * A PostgreSQL cluster of its own: a temp directory, a spare loopback port, trust auth, no fsync.
 * It can be stopped and started at will without touching the machine's shared server.
 */
export class PrivatePostgres {
  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
  ) {}

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  databaseUrl(name: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${name}`;
  }

  static async start(): Promise<PrivatePostgres> {
    const bin = postgresBin();
    const dir = mkdtempSync(join(tmpdir(), 'inbox-faults-pg-'));
    const owner = ownerIds();
    if (owner) chownSync(dir, owner.uid, owner.gid);
    const cluster = new PrivatePostgres(dir, await freePort(), bin);
    onCleanup(
      `postgres ${dir}`,
      async () => {
        await cluster.stop('immediate').catch(() => undefined);
        removeDir(dir);
      },
      () => {
        try {
          execFileSync(...asOwner(join(bin, 'pg_ctl'), ['-D', cluster.dataDir, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
        } catch {
          // not running
        }
        removeDir(dir);
      },
    );
    await run(...asOwner(join(bin, 'initdb'), ['-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']));
    await cluster.startServer();
    return cluster;
  }

  private get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** Starts the server (again) on the same port and data; resolves once it accepts connections. */
  async startServer(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
    await run(...asOwner(join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-o', options, '-l', join(this.dir, 'server.log'), '-w', '-t', '30', 'start']));
    await waitFor('postgres accepting connections', () => this.ping(), 15_000);
  }

  /** `fast`: a clean stop (clients are disconnected); `immediate`: like a crash. */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await run(...asOwner(join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-m', mode, '-w', '-t', '30', 'stop']));
  }

  async ping(): Promise<boolean> {
    const client = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
