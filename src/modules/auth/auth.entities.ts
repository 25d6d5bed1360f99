import { ApiKeyEntity } from './entities/api-key.entity.js';
import { EmailTokenEntity } from './entities/email-token.entity.js';
import { GooglePendingSignupEntity } from './entities/google-pending-signup.entity.js';
import { SessionEntity } from './entities/session.entity.js';
import { UserEntity } from './entities/user.entity.js';

/** The tables the auth module owns; gathered with the other modules' in `src/entities.ts`. */
export const AUTH_ENTITIES = [UserEntity, SessionEntity, ApiKeyEntity, EmailTokenEntity, GooglePendingSignupEntity];
