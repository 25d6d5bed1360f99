export interface Observation {
  method: string;
  /** The operation's path template in the OpenAPI document, e.g. `/api/invites/{id}`. */
  route: string;
  status: number;
  /** Whether the app's OpenAPI document lists `status` for this operation. */
  declared: boolean;
}
export function observedStatusesDir(runId: string): string;
export function readObservations(dir: string): Observation[];
export function undeclaredPairs(observations: Observation[]): string[];
export function checkObservedStatuses(runId: string): void;
