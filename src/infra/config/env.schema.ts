import { FeaturesEnv } from './features-env.schema.js';

/**
 * Every environment variable the service reads. `.env.example` documents each one; keep both in
 * step. Values arrive as strings and are converted here, so the rest of the code only sees
 * `AppConfig`.
 *
 * One flat set of variables, declared by concern in three files: the service's own
 * (service-env.schema.ts), the channels' (channels-env.schema.ts) and the features'
 * (features-env.schema.ts), each class extending the one before. class-validator and
 * class-transformer read the rules and conversions of a class's ancestors too, so this class is
 * validated as the whole list.
 */
export class EnvSchema extends FeaturesEnv {}
