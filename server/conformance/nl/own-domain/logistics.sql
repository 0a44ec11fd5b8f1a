-- A logistics domain for the natural-language conformance: warehouses, customers, carriers, shipments
-- and claims. Every row is computed from its number by fixed arithmetic, so the data is the same on each load.
CREATE TABLE warehouses (
  id INTEGER PRIMARY KEY,
  name VARCHAR NOT NULL,
  city VARCHAR NOT NULL,
  country VARCHAR NOT NULL,
  capacity_m3 INTEGER NOT NULL,
  opened_year INTEGER NOT NULL,
  bonded BOOLEAN NOT NULL
);
CREATE TABLE customers (
  id INTEGER PRIMARY KEY,
  name VARCHAR NOT NULL,
  city VARCHAR NOT NULL,
  country VARCHAR NOT NULL,
  segment VARCHAR,
  credit_limit INTEGER NOT NULL,
  signup_date DATE NOT NULL
);
CREATE TABLE carriers (
  id INTEGER PRIMARY KEY,
  name VARCHAR NOT NULL,
  mode VARCHAR NOT NULL,
  rating DOUBLE NOT NULL,
  country VARCHAR NOT NULL
);
CREATE TABLE shipments (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers(id),
  warehouse_id INTEGER NOT NULL REFERENCES warehouses(id),
  carrier_id INTEGER NOT NULL REFERENCES carriers(id),
  dest_city VARCHAR NOT NULL,
  weight_kg DOUBLE NOT NULL,
  declared_value DOUBLE NOT NULL,
  priority BOOLEAN NOT NULL,
  status VARCHAR NOT NULL,
  shipped_date DATE NOT NULL
);
CREATE TABLE claims (
  id INTEGER PRIMARY KEY,
  shipment_id INTEGER NOT NULL REFERENCES shipments(id),
  amount DOUBLE NOT NULL,
  status VARCHAR NOT NULL,
  reason VARCHAR NOT NULL,
  filed_date DATE NOT NULL
);
INSERT INTO warehouses VALUES
  (1, 'Malmö Harbour', 'Malmö', 'SE', 42000, 2009, true),
  (2, 'Göteborg North', 'Göteborg', 'SE', 55000, 2012, true),
  (3, 'Stockholm Värta', 'Stockholm', 'SE', 30000, 2015, false),
  (4, 'Oslo Alnabru', 'Oslo', 'NO', 28000, 2011, false),
  (5, 'Aarhus Port', 'Aarhus', 'DK', 36000, 2008, true),
  (6, 'Copenhagen South', 'Copenhagen', 'DK', 24000, 2018, false),
  (7, 'Hamburg Waltershof', 'Hamburg', 'DE', 80000, 2005, true),
  (8, 'Berlin Ost', 'Berlin', 'DE', 46000, 2016, false),
  (9, 'Gdansk Terminal', 'Gdansk', 'PL', 51000, 2019, true),
  (10, 'Poznan Central', 'Poznan', 'PL', 33000, 2020, false),
  (11, 'Rotterdam Maasvlakte', 'Rotterdam', 'NL', 90000, 2003, true),
  (12, 'Utrecht Lage Weide', 'Utrecht', 'NL', 22000, 2021, false);
INSERT INTO customers
SELECT i,
  (['Alder', 'Birch', 'Cedar', 'Dune', 'Elm', 'Fjord', 'Granite', 'Heath', 'Iris', 'Juniper', 'Kestrel', 'Linden',
    'Maple', 'Nordic', 'Oak', 'Pine', 'Quartz', 'Rowan', 'Spruce', 'Tundra'])[1 + i % 20] || ' ' ||
  (['Foods', 'Textiles', 'Metals', 'Pharma', 'Timber', 'Paper', 'Glass', 'Motors', 'Toys', 'Wines', 'Tools',
    'Plastics', 'Books', 'Coffee', 'Shoes'])[1 + (i // 20) % 15],
  (['Lund', 'Uppsala', 'Bergen', 'Odense', 'Bremen', 'Leipzig', 'Krakow', 'Eindhoven', 'Malmö', 'Turku'])[1 + i % 10],
  (['SE', 'SE', 'NO', 'DK', 'DE', 'DE', 'PL', 'NL', 'SE', 'FI'])[1 + i % 10],
  CASE WHEN i % 7 = 0 THEN NULL ELSE (['retail', 'industrial', 'healthcare', 'wholesale'])[1 + i % 4] END,
  5000 + (i * 7919) % 95000,
  DATE '2019-01-01' + INTERVAL (i * 5) DAY
FROM range(1, 301) AS t(i);
INSERT INTO carriers VALUES
  (1, 'NordRail', 'rail', 4.2, 'SE'),
  (2, 'Baltic Freight', 'sea', 3.8, 'PL'),
  (3, 'SwiftAir Cargo', 'air', 4.6, 'DE'),
  (4, 'Fjell Transport', 'road', 3.5, 'NO'),
  (5, 'Danline', 'road', 4.0, 'DK'),
  (6, 'Rhein Logistik', 'rail', 3.9, 'DE'),
  (7, 'North Sea Lines', 'sea', 4.4, 'NL'),
  (8, 'Vistula Trucks', 'road', 2.9, 'PL');
INSERT INTO shipments
SELECT i,
  1 + (i * 131) % 300,
  1 + (i * 7) % 12,
  1 + (i * 3) % 8,
  (['Malmö', 'Vilnius', 'Riga', 'Tallinn', 'Helsinki', 'Prague', 'Vienna', 'Zurich', 'Lyon', 'Milan', 'Madrid',
    'Lisbon', 'Dublin'])[1 + (i * 5) % 13],
  round(1 + ((i * 2654435761) % 100000) / 97.0, 1),
  round(100 + ((i * 40503) % 100000) / 3.0, 2),
  (i % 10) IN (0, 3, 7),
  (['delivered', 'delivered', 'delivered', 'in_transit', 'delivered', 'returned', 'delivered', 'lost', 'delivered',
    'in_transit', 'delivered'])[1 + (i * 17) % 11],
  DATE '2023-01-01' + INTERVAL ((i * 37) % 730) DAY
FROM range(1, 2001) AS t(i);
INSERT INTO claims
SELECT k,
  1 + (k * 97) % 2000,
  round(50 + ((k * 7331) % 50000) / 9.0, 2),
  (['approved', 'rejected', 'pending', 'approved', 'approved', 'rejected'])[1 + (k * 5) % 6],
  (['damage', 'loss', 'delay', 'damage'])[1 + (k * 3) % 4],
  DATE '2023-02-01' + INTERVAL ((k * 29) % 700) DAY
FROM range(1, 241) AS t(k);
