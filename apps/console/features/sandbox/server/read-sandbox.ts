import {
  buildJsonSchema,
  containerListJsonSchema,
  imageStatusJsonSchema,
  pageJsonSchema,
  type BuildJson,
  type ContainerJson,
  type ImageStatusJson,
  type PageJson,
} from '@agentdesk/api-contract';
import { getFromApi, type ApiCredential } from '../../api-client';
import { pageQuery } from '../../url-state';

/** A part of the page: its data, or why the API did not give it (shown in place, the rest still renders). */
export type Loaded<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function loaded<T>(read: Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, value: await read };
  } catch (error) {
    return { ok: false, error };
  }
}

export const BUILD_HISTORY_SIZE = 20;

const buildsPageSchema = pageJsonSchema(buildJsonSchema);

export interface SandboxOverview {
  image: Loaded<ImageStatusJson>;
  builds: Loaded<PageJson<BuildJson>>;
  containers: Loaded<{ items: ContainerJson[] }>;
}

/** The image, the latest builds and the containers, read side by side. */
export async function readSandbox(credential: ApiCredential): Promise<SandboxOverview> {
  const [image, builds, containers] = await Promise.all([
    loaded(getFromApi(credential, '/v1/admin/sandbox/image', {}, imageStatusJsonSchema)),
    loaded(
      getFromApi(
        credential,
        '/v1/admin/sandbox/builds',
        pageQuery(undefined, BUILD_HISTORY_SIZE),
        buildsPageSchema,
      ),
    ),
    loaded(getFromApi(credential, '/v1/admin/sandbox/containers', {}, containerListJsonSchema)),
  ]);
  return { image, builds, containers };
}
