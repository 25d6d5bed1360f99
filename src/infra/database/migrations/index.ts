import { Init1764000000000 } from './1764000000000-Init.js';

// Every migration in order. A new migration file must be added to this list.
export const MIGRATIONS: Function[] = [Init1764000000000];
