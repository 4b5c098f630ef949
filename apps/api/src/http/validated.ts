import { Body, Param, Query } from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery } from '@nestjs/swagger';
import type { z } from 'zod';
import { openApiSchemaOf } from './openapi-schema';
import { ZodValidationPipe } from './zod-validation.pipe';

type MethodDecoratorFunction = (
  target: object,
  key: string | symbol,
  descriptor: PropertyDescriptor,
) => unknown;

// Parameter decorators run while the method is decorated, so its descriptor is already on the prototype.
function applyToMethod(
  target: object,
  key: string | symbol | undefined,
  decorators: MethodDecoratorFunction[],
): void {
  if (key === undefined) throw new Error('Validated parameters only work on methods');
  const descriptor = Object.getOwnPropertyDescriptor(target, key);
  if (descriptor === undefined) throw new Error(`No method ${String(key)} to document`);
  for (const decorate of decorators) decorate(target, key, descriptor);
}

/** The JSON body, validated by `schema` (use `.strict()` objects) and documented in OpenAPI. */
export function ValidBody(schema: z.ZodType): ParameterDecorator {
  return (target, key, index) => {
    Body(new ZodValidationPipe(schema, 'body'))(target, key, index);
    applyToMethod(target, key, [ApiBody({ schema: openApiSchemaOf(schema) })]);
  };
}

/** The query string, validated by a strict zod object and documented parameter by parameter. */
export function ValidQuery(schema: z.ZodObject): ParameterDecorator {
  return (target, key, index) => {
    Query(new ZodValidationPipe(schema, 'query'))(target, key, index);
    applyToMethod(
      target,
      key,
      Object.entries(schema.shape).map(([name, property]) =>
        ApiQuery({
          name,
          required: !(property as z.ZodType).safeParse(undefined).success,
          schema: openApiSchemaOf(property as z.ZodType),
        }),
      ),
    );
  };
}

/** One path parameter, validated and documented. */
export function ValidParam(name: string, schema: z.ZodType): ParameterDecorator {
  return (target, key, index) => {
    Param(name, new ZodValidationPipe(schema, 'path', name))(target, key, index);
    applyToMethod(target, key, [ApiParam({ name, required: true, schema: openApiSchemaOf(schema) })]);
  };
}
