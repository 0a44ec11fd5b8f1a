import { describe, expect, it } from 'vitest';
import { openApiSchemas, openApiVersionOf } from './openapi-schemas.js';

describe('openApiVersionOf', () => {
  it('reads the declared 3.x version', () => {
    expect(openApiVersionOf('openapi: 3.1.0\ninfo: {}')).toBe('3.1');
    expect(openApiVersionOf('info: {}\nopenapi: "3.2.0"')).toBe('3.1');
    expect(openApiVersionOf('{\n  "openapi": "3.1.1",\n  "info": {}\n}')).toBe('3.1');
    expect(openApiVersionOf("openapi: '3.0.3'")).toBe('3.0');
  });

  it('says 3.0 when the document declares nothing usable', () => {
    expect(openApiVersionOf('')).toBe('3.0');
    expect(openApiVersionOf('swagger: "2.0"')).toBe('3.0');
    expect(openApiVersionOf('openapi: 4.0.0')).toBe('3.0');
    expect(openApiVersionOf('info:\n  x-openapi: 3.1.0')).toBe('3.0');
  });
});

describe('openApiSchemas', () => {
  it('bundles a schema with its own id for each version', () => {
    expect(openApiSchemas['3.0'].uri).toMatch(/^https:\/\/spec\.openapis\.org\/oas\/3\.0\//);
    expect(openApiSchemas['3.1'].uri).toMatch(/^https:\/\/spec\.openapis\.org\/oas\/3\.1\//);
    expect(openApiSchemas['3.0'].schema).toHaveProperty('properties.openapi');
  });
});
