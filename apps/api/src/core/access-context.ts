/** Per-app facts the auth layer needs, fixed at start. */
export interface AccessContext {
  /** The stored user the dev-mode anonymous principal acts as; null outside dev mode. */
  readonly devUserId: string | null;
  /**
   * The passport strategy name of this app instance. Passport keeps strategies in one
   * process-wide registry, so two apps in one process (tests) must not share a name.
   */
  readonly strategyName: string;
}
