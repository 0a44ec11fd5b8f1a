/**
 * The bench's library handler whose `GET /books` answer changes on every request (a fresh `timestamp`, declared
 * `date-time` in the spec's BookList): the contract check cannot reuse the verdict of an answer it has seen, as it
 * does for the example handler's unchanging list (bench/instructions.mjs, ONLY=contract).
 */
import { Router, t } from 'adaptive-workbench/handler';

const Book = t.Object({
  id: t.Integer(),
  title: t.String(),
  author: t.String(),
  isbn: t.String(),
  available: t.Boolean(),
  publishedYear: t.Integer(),
});

const books = [
  {
    id: 1,
    title: 'The Pragmatic Programmer',
    author: 'David Thomas, Andrew Hunt',
    isbn: '978-0135957059',
    available: true,
    publishedYear: 2019,
  },
  {
    id: 2,
    title: 'Designing Data-Intensive Applications',
    author: 'Martin Kleppmann',
    isbn: '978-1449373320',
    available: false,
    publishedYear: 2017,
  },
];

export const router = new Router();

router.get(
  '/books',
  { response: t.Object({ books: t.Array(Book), count: t.Integer(), timestamp: t.String({ format: 'date-time' }) }) },
  () => ({ books, count: books.length, timestamp: new Date().toISOString() }),
);
