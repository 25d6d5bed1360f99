/**
 * What a data migration may need besides SQL: the root encryption key, for rows that must be
 * sealed as the service seals them (e.g. a secret every existing workspace gets). TypeORM builds
 * migrations itself, so the migrator hands it over here for the length of a run. Unset when
 * migrations run without the service's configuration (the TypeORM CLI): such a migration then
 * leaves the rows for the service to create.
 */
let current: { encryptionKey?: Buffer } = {};

export const migrationEncryptionKey = (): Buffer | undefined => current.encryptionKey;

export async function withMigrationContext<T>(context: { encryptionKey?: Buffer }, work: () => Promise<T>): Promise<T> {
  const previous = current;
  current = context;
  try {
    return await work();
  } finally {
    current = previous;
  }
}
