import pg from 'pg';

/**
 * Creates the database named in `url` when it does not exist yet (first start on a fresh server).
 * True when this call created it.
 */
export async function ensureDatabase(url: string): Promise<boolean> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) return false;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    return await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).then(
      () => true,
      (error: { code?: string }) => {
        // Another process created it between our check and our CREATE: that is fine. Postgres
        // reports that race as 42P04 (duplicate_database) or, when both CREATEs run at once, as
        // 23505 on its catalog's unique index.
        if (error.code !== '42P04' && error.code !== '23505') throw error;
        return false;
      },
    );
  } finally {
    await client.end();
  }
}
