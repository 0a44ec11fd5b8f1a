import { faker } from '@faker-js/faker/locale/en';
import { describe, expect, it } from 'vitest';
import { DynamicExamples } from './dynamic-example.js';

const document = {
  openapi: '3.1.0',
  info: { title: 'lorem', version: '1' },
  paths: {},
  components: {
    schemas: {
      Book: {
        type: 'object',
        required: ['title', 'description', 'short'],
        properties: {
          title: { type: 'string' },
          description: { type: 'string' },
          short: { type: 'string', maxLength: 8 },
        },
      },
      Short: { type: 'object', required: ['title'], properties: { title: { type: 'string', maxLength: 8 } } },
    },
  },
};
const words = new Set(faker.definitions.lorem.word);

/** The words of a lorem sentence: capitalised first, a full stop last. */
function sentenceWords(text: string): string[] {
  expect(text).toMatch(/^[A-Z][a-z ]*\.$/);
  return text.slice(0, -1).toLowerCase().split(' ');
}

describe('plausible lorem values of titles and descriptions', () => {
  const examples = new DynamicExamples(document, '3.1.0');
  const book = (seed?: number) =>
    examples.generate('#/components/schemas/Book', seed, 'GET /books 200') as Record<string, string>;

  it("makes a title of 2 to 5 and a description of 3 to 10 of faker's Latin words", () => {
    for (let i = 0; i < 20; i++) {
      const { title, description } = book();
      const titleWords = sentenceWords(title);
      const descriptionWords = sentenceWords(description);
      expect(titleWords.length).toBeGreaterThanOrEqual(2);
      expect(titleWords.length).toBeLessThanOrEqual(5);
      expect(descriptionWords.length).toBeGreaterThanOrEqual(3);
      expect(descriptionWords.length).toBeLessThanOrEqual(10);
      for (const word of [...titleWords, ...descriptionWords]) expect(words).toContain(word);
    }
  });

  it('repeats them for a seed, and draws new ones without', () => {
    expect(book(42)).toEqual(book(42));
    expect(new Set(Array.from({ length: 10 }, () => book().description)).size).toBeGreaterThan(5);
  });

  it('keeps a title within its maxLength', () => {
    for (let i = 0; i < 20; i++) {
      const { title } = examples.generate('#/components/schemas/Short', undefined, 'GET /short 200') as {
        title: string;
      };
      expect(title.length).toBeLessThanOrEqual(8);
    }
  });
});
