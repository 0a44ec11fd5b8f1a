/**
 * The reference library API (mount `library-api`), with real logic: an in-memory catalogue of books.
 * It overrides the routes generated from specs/library-api.openapi.yaml and adds `GET /stats`, which
 * the spec does not have.
 */
import { HTTPException, Router, t, type Static } from 'adaptive-workbench/handler';

const Book = t.Object({
  id: t.Integer({ description: 'Assigned sequentially on creation' }),
  title: t.String(),
  author: t.String(),
  isbn: t.String({ description: 'AUTO-<id> when omitted on creation' }),
  available: t.Boolean({ description: 'True on creation' }),
  publishedYear: t.Integer({ description: 'Defaults to the current UTC year' }),
});
type Book = Static<typeof Book>;

// title and author are checked by the route itself, so that a request without them gets the
// service document's message rather than a generic validation error.
const BookCreate = t.Object({
  title: t.Optional(t.String({ description: 'Required' })),
  author: t.Optional(t.String({ description: 'Required' })),
  isbn: t.Optional(t.String({ description: 'Default: AUTO-<id>' })),
  publishedYear: t.Optional(t.Integer({ description: 'Default: the current UTC year' })),
});

const books: Book[] = [];
let nextId = 1;

function addBook(fields: Static<typeof BookCreate> & { title: string; author: string }, available = true): Book {
  const id = nextId++;
  const book: Book = {
    id,
    title: fields.title,
    author: fields.author,
    isbn: fields.isbn ?? `AUTO-${id}`,
    available,
    publishedYear: fields.publishedYear ?? new Date().getUTCFullYear(),
  };
  books.push(book);
  return book;
}

addBook({
  title: 'The Pragmatic Programmer',
  author: 'David Thomas, Andrew Hunt',
  isbn: '978-0135957059',
  publishedYear: 2019,
});
addBook(
  {
    title: 'Designing Data-Intensive Applications',
    author: 'Martin Kleppmann',
    isbn: '978-1449373320',
    publishedYear: 2017,
  },
  false,
);
addBook({ title: 'Refactoring', author: 'Martin Fowler', isbn: '978-0134757599', publishedYear: 2018 });

export const router = new Router();

router.get(
  '/books',
  {
    summary: 'List books',
    query: t.Object({
      available: t.Optional(t.Boolean({ description: 'Only books whose availability equals this value' })),
    }),
    response: t.Object({ books: t.Array(Book), count: t.Integer({ description: 'Number of books returned' }) }),
  },
  ({ query }) => {
    const selected = query.available === undefined ? books : books.filter((book) => book.available === query.available);
    return { books: selected, count: selected.length };
  },
);

router.post(
  '/books',
  {
    summary: 'Add a book',
    body: BookCreate,
    response: Book,
    status: 201,
    errors: { 400: 'Title and author are required' },
  },
  ({ body }) => {
    const title = body.title?.trim();
    const author = body.author?.trim();
    if (!title || !author) throw new HTTPException(400, 'Title and author are required');
    return addBook({ ...body, title: body.title!, author: body.author! });
  },
);

router.get(
  '/books/{bookId}',
  {
    summary: 'Get a book by id',
    params: t.Object({ bookId: t.Integer() }),
    response: Book,
    errors: { 404: 'Book not found' },
  },
  ({ params }) => {
    const book = books.find((b) => b.id === params.bookId);
    if (!book) throw new HTTPException(404, `Book ${params.bookId} not found`);
    return book;
  },
);

router.get('/stats', { summary: 'Catalogue statistics', response: t.Object({ total_books: t.Integer() }) }, () => ({
  total_books: books.length,
}));
