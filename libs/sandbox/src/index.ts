export {
  sandboxConfigSchema,
  sandboxLimitsSchema,
  sandboxExecSchema,
  parseSandboxConfig,
  type SandboxConfig,
  type SandboxConfigInput,
  type SandboxLimits,
} from './config/sandbox-config';
export { SandboxError, isSandboxError, type SandboxErrorCode } from './engine/sandbox-error';
export { EngineClient, type EngineEndpoint } from './engine/engine-client';
export { type CapturedStream } from './engine/demultiplex-output';
export { type SandboxLogger, consoleLogger, silentLogger } from './logger';

export { SandboxService, type SandboxServiceOptions, type SessionSandbox } from './sandbox-service';
export { type BuildLock, inProcessBuildLock } from './image/build-lock';
export {
  BuildHandle,
  type BuildListener,
  type BuildOutcome,
  type BuildRecord,
  type EnsureImageResult,
} from './image/build-handle';
export { type BuildEvent } from './image/build-events';
export { imageLabels, renderBuildContext, type BuildContext } from './image/build-context';
export {
  ensureImagePin,
  IMAGE_PIN_NAME,
  BASE_IMAGE_PIN_NAME,
  type PinOutcome,
  type PinReport,
} from './image/ensure-image-pin';
export { type ImageStatus, type PinStatus } from './image/image-status';
export { type PinCheck } from './image/pin-keeper';
export { type BuildCause, type BuildStartedListener } from './image/build-cause';
export { type RestoreBaseImage } from './image/sandbox-image';

export { containerLabels, type ContainerRole } from './sandboxes/container-labels';
export { WORKSPACE_PATH } from './sandboxes/container-spec';
export { runCommandInputSchema, type CommandResult, type RunCommandInput } from './sandboxes/run-command';
export { sessionIdSchema, type SandboxContainerInfo } from './sandboxes/session-containers';
export { type ListFilesOptions, type WorkspaceEntry, type WorkspaceFile } from './sandboxes/workspace-files';

export { buildOfflineBaseImage, type OfflineBaseImageOptions } from './local-engine/offline-base-image';
export {
  startPrivateEngine,
  PrivateEngineError,
  type PrivateEngine,
  type StartPrivateEngineOptions,
} from './local-engine/private-engine';

export { createSandboxTools, sandboxToolNames } from './tools/sandbox-tools';
export { sandboxErrorOutput } from './tools/tool-error-output';
