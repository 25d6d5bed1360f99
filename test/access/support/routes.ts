import type { INestApplication, Type } from '@nestjs/common';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { MetadataScanner, ModulesContainer, Reflector } from '@nestjs/core';
import type { AccessRule } from '../../../src/modules/auth/decorators/access.decorators.js';
import { accessRuleOf } from '../../../src/modules/auth/guards/access-rule.js';

export interface RouteInfo {
  method: string;
  path: string;
  controller: string;
  handler: string;
  rule: AccessRule;
}

const joinPath = (...parts: string[]): string => `/${parts.join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');

const asList = (value: string | string[] | undefined): string[] => (Array.isArray(value) ? value : [value ?? '']);

/**
 * Every HTTP route the app's controllers declare, with the access rule the guards will apply,
 * computed by the guards' own `accessRuleOf`. Sorted by path then method, so diffs stay small.
 */
export function listRoutes(app: INestApplication): RouteInfo[] {
  const reflector = app.get(Reflector);
  const scanner = new MetadataScanner();
  const controllers = new Set<Type>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      if (wrapper.metatype) controllers.add(wrapper.metatype as Type);
    }
  }
  const routes: RouteInfo[] = [];
  for (const controller of controllers) {
    const base = asList(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined);
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of scanner.getAllMethodNames(prototype)) {
      const handler = prototype[name];
      if (typeof handler !== 'function') continue;
      const own = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (own === undefined) continue;
      const method = RequestMethod[(Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined) ?? RequestMethod.GET];
      const rule = accessRuleOf(reflector, handler, controller);
      for (const prefix of base) {
        for (const path of asList(own)) {
          routes.push({ method, path: joinPath(prefix, path), controller: controller.name, handler: name, rule });
        }
      }
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

/** A concrete URL for a route pattern: every `:param` becomes a well-formed, unknown UUID. */
export function concretePath(path: string): string {
  return path.replace(/:[A-Za-z0-9_]+\??/g, '00000000-0000-4000-8000-000000000000').replace(/\*\w*/g, 'x');
}
