import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A Google sign-in by someone without an account yet, waiting for them to accept the terms
 * (`POST /api/auth/google/confirm`). What Google vouched for is kept here, on the server, so the
 * browser only holds a random token (its SHA-256 is stored): nothing the browser sends can change
 * the email, name or Google account that confirm will use.
 */
@Entity({ name: 'google_pending_signups' })
export class GooglePendingSignupEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'token_hash', type: 'text', unique: true })
  tokenHash: string;

  /** The Google account's `sub`; a newer sign-up of the same account replaces the older one. */
  @Index('google_pending_signups_google_sub_idx')
  @Column({ name: 'google_sub', type: 'text' })
  googleSub: string;

  /** Lower-cased, as users' emails are. */
  @Column({ type: 'text' })
  email: string;

  @Column({ name: 'email_verified', type: 'boolean' })
  emailVerified: boolean;

  @Column({ type: 'text' })
  name: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** Expired rows are swept when new ones are stored. */
  @Index('google_pending_signups_expires_at_idx')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;
}
