import { Inject, Injectable, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { AUDIT_POLICY, type AuditPolicy } from './audit-policy';
import { ROUTE_POLICY, type RoutePolicy } from './route-policy';

/** One HTTP route of the running app and the access policy the global guard will apply to it. */
export interface RouteEntry {
  readonly method: string;
  /** Fastify-style path, e.g. `/v1/sessions/:id`. */
  readonly path: string;
  /** `undefined`: no policy, so the guard denies every call. */
  readonly policy: RoutePolicy | undefined;
  /** Whether its calls are audited (`@Audited` / `@NotAudited`); `undefined`: not decided. */
  readonly audit: AuditPolicy | undefined;
  readonly controller: string;
  readonly handler: string;
}

/** Every route Fastify registered (filled by an `onRoute` hook), including any added outside Nest. */
export class RegisteredRoutes {
  readonly routes: Array<{ readonly method: string; readonly path: string }> = [];
}

/** Reads the routes and their access and audit policies from the running app's controllers (tests, startup checks). */
@Injectable()
export class RouteInventory {
  private readonly scanner = new MetadataScanner();

  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(Reflector) private readonly reflector: Reflector,
  ) {}

  routes(): RouteEntry[] {
    const entries: RouteEntry[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
      if (controller === null || typeof controller !== 'function') continue;
      const prototype = controller.prototype as Record<string, unknown>;
      const controllerPaths = asArray(
        Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined,
      );
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        if (typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const handlerPaths = asArray(
          Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined,
        );
        const policy = this.reflector.getAllAndOverride<RoutePolicy | undefined>(ROUTE_POLICY, [
          handler,
          controller,
        ]);
        const audit = this.reflector.getAllAndOverride<AuditPolicy | undefined>(AUDIT_POLICY, [
          handler,
          controller,
        ]);
        for (const controllerPath of controllerPaths) {
          for (const handlerPath of handlerPaths) {
            entries.push({
              method: RequestMethod[method],
              path: joinPath(controllerPath, handlerPath),
              policy,
              audit,
              controller: controller.name,
              handler: name,
            });
          }
        }
      }
    }
    return entries.sort((left, right) =>
      `${left.path} ${left.method}`.localeCompare(`${right.path} ${right.method}`),
    );
  }
}

function asArray(value: string | string[] | undefined): string[] {
  if (value === undefined) return [''];
  return Array.isArray(value) ? value : [value];
}

function joinPath(...parts: string[]): string {
  const joined = parts
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter((part) => part.length > 0)
    .join('/');
  return `/${joined}`;
}
