-- The conformance fixture: tables and functions from PostgREST's documentation examples
-- (the films database, orders with two addresses, full-text search, ranges, JSON), in a
-- schema of their own and a second exposed schema for profiles. Test-only: never part of
-- the product's migrations. Every expected value in the conformance tests is counted by
-- hand from the rows below.

create schema conformance;
create schema conformance_b;
grant usage on schema conformance, conformance_b to anon, authenticated, service_role;

create table conformance.directors (id int primary key, first_name text, last_name text);
create table conformance.films (
  id int primary key,
  director_id int references conformance.directors (id),
  title text,
  year int,
  rating numeric(3,1),
  language text
);
-- One-to-one: the foreign key is the primary key.
create table conformance.technical_specs (
  film_id int primary key references conformance.films (id),
  camera text,
  sound text
);
create table conformance.actors (id int primary key, first_name text, last_name text);
-- A junction: both foreign keys are in the primary key, so films and actors are many-to-many.
create table conformance.roles (
  film_id int references conformance.films (id),
  actor_id int references conformance.actors (id),
  character text,
  primary key (film_id, actor_id)
);

insert into conformance.directors values (1, 'William', 'Dickson'), (2, 'Louis', 'Lumière'), (3, 'Georges', 'Méliès');
insert into conformance.films values
  (1, 2, 'Workers Leaving The Lumière Factory In Lyon', 1895, 7.1, 'french'),
  (2, 1, 'The Dickson Experimental Sound Film', 1894, 6.4, 'english'),
  (3, 3, 'The Haunted Castle', 1896, 6.8, 'french'),
  (4, 3, 'A Trip to the Moon', 1902, 8.1, 'french');
insert into conformance.technical_specs values (1, 'Cinématographe', 'silent'), (3, 'Star Film camera', 'silent');
insert into conformance.actors values (1, 'Jehanne', 'd''Alcy'), (2, 'Georges', 'Méliès'), (3, 'Bleuette', 'Bernon');
insert into conformance.roles values (3, 1, 'The Witch'), (3, 2, 'The Cavalier'), (4, 2, 'Professor Barbenfouillis'), (4, 3, 'Moon Goddess');

create table conformance.customers (id int primary key, name text, city text);
create table conformance.addresses (id int primary key, name text, city text);
-- Two foreign keys to addresses, named as in PostgREST's documentation.
create table conformance.orders (
  id int primary key,
  name text,
  billing_address_id int,
  shipping_address_id int,
  customer_id int references conformance.customers (id),
  amount numeric(10,2),
  order_date date,
  constraint billing foreign key (billing_address_id) references conformance.addresses (id),
  constraint shipping foreign key (shipping_address_id) references conformance.addresses (id)
);
insert into conformance.customers values (1, 'Customer A', 'New York'), (2, 'Customer B', 'Los Angeles');
insert into conformance.addresses values (1, '32 Glenlake Dr', 'Dearborn'), (2, '30 Glenlake Dr', 'Dearborn'), (3, '1 Main St', 'Boston');
insert into conformance.orders values
  (1, 'Personal Water Filter', 1, 2, 1, 100.50, '2023-09-01'),
  (2, 'Coffee Machine', 1, 1, 1, 200.00, '2023-09-01'),
  (3, 'Kettle', 3, 3, 2, 50.25, '2023-09-02'),
  (4, 'Toaster', 3, 1, 2, 30.00, '2023-09-02'),
  (5, 'Blender', 2, 2, 1, 75.00, '2023-09-03');

create table conformance.reservations (id int primary key, room text, during int4range);
insert into conformance.reservations values (1, 'A', '[1,5)'), (2, 'B', '[5,10)'), (3, 'C', '[10,20)'), (4, 'D', '[3,8)');

create table conformance.tsearch (id int primary key, my_tsv tsvector);
insert into conformance.tsearch values
  (1, to_tsvector('english', 'The Fat Cats ate the big rats')),
  (2, to_tsvector('french', 'Ce film est très amusant')),
  (3, to_tsvector('english', 'A fat cat sat on a mat')),
  (4, to_tsvector('english', 'Rats ate the cheese'));

create table conformance.people (id int primary key, first_name text, last_name text, json_data jsonb, tags text[]);
insert into conformance.people values
  (1, 'Oscar', 'Olsen', '{"blood_type": "A-", "age": 25, "phones": [{"country_code": "61", "number": "917-929-5745"}]}', '{a,b}'),
  (2, 'Paula', 'Pearson', '{"blood_type": "O+", "age": 30, "phones": [{"country_code": "43", "number": "512-446-4988"}, {"country_code": "43", "number": "213-891-5979"}]}', '{b,c}'),
  (3, 'Quinn', 'Olden', '{"blood_type": "A-", "age": 35, "phones": []}', '{c}'),
  (4, 'Rita', 'Nolan', '{"blood_type": "B+", "age": 20}', '{}');

-- Written to by the tests of writes; each test works on its own ids.
create table conformance.tasks (id int primary key, title text not null, done boolean not null default false);
create table conformance.tags (name text primary key);

-- Profiles: a table of the same name in both schemas, with different rows.
create table conformance.items (id int primary key, name text);
create table conformance_b.items (id int primary key, name text);
insert into conformance.items values (1, 'first schema');
insert into conformance_b.items values (1, 'second schema'), (2, 'second schema too');

create function conformance.getallfilms() returns setof conformance.films language sql stable as $$
  select * from conformance.films
$$;
create function conformance.add_them(a integer, b integer) returns integer language sql immutable as $$ select a + b $$;
create function conformance.film_titles() returns setof text language sql stable as $$
  select title from conformance.films order by id
$$;
create function conformance.films_since(p_year integer) returns table (title text, year integer) language sql stable as $$
  select title, year from conformance.films where year >= p_year
$$;
create function conformance.one_film(p_id integer) returns conformance.films language sql stable as $$
  select * from conformance.films where id = p_id
$$;
-- Volatile: adds a task per title and returns them (for max-affected and tx=rollback on rpc).
create function conformance.add_tasks(p_titles text[]) returns setof conformance.tasks language sql volatile as $$
  insert into conformance.tasks (id, title)
  select 1000 + row_number() over () + coalesce((select max(id) - 1000 from conformance.tasks where id > 1000), 0), t
  from unnest(p_titles) t
  returning *
$$;
create function conformance.forget_tasks() returns void language sql volatile as $$
  delete from conformance.tasks where id > 1000
$$;

-- Computed relationships (PostgREST's "Computed Relationships" example): premieres are
-- tied to films by functions only, no foreign key. film() is to-one (ROWS 1); premieres()
-- shares its table's name.
create table conformance.premieres (id int primary key, location text, "date" date, film_id int);
insert into conformance.premieres values (1, 'Paris', '1895-12-28', 1), (2, 'Lyon', '1896-01-25', 1), (3, 'Paris', '1902-09-01', 4);
create function conformance.film(conformance.premieres) returns setof conformance.films rows 1 language sql stable as $$
  select * from conformance.films where id = $1.film_id
$$;
create function conformance.premieres(conformance.films) returns setof conformance.premieres language sql stable as $$
  select * from conformance.premieres where film_id = $1.id
$$;
-- A computed field ("Computed Fields"): a function of an actor's row.
create function conformance.full_name(conformance.actors) returns text language sql immutable as $$
  select $1.first_name || ' ' || $1.last_name
$$;
-- A view showing films' keys: embeds through it follow the films' foreign keys.
create view conformance.film_view as select id, director_id, title from conformance.films;
-- Overloaded functions ("Overloaded Functions"): told apart by their parameters' names;
-- order_count's two overloads are not.
create function conformance.order_total(customer_id integer) returns numeric language sql stable as $$
  select sum(amount) from conformance.orders where orders.customer_id = order_total.customer_id
$$;
create function conformance.order_total(customer_id integer, since date) returns numeric language sql stable as $$
  select sum(amount) from conformance.orders where orders.customer_id = order_total.customer_id and order_date >= since
$$;
create function conformance.order_count(c integer) returns bigint language sql stable as $$
  select count(*) from conformance.orders where customer_id = c
$$;
create function conformance.order_count(c text) returns bigint language sql stable as $$
  select count(*) from conformance.orders o join conformance.customers cu on cu.id = o.customer_id where cu.name = c
$$;
-- One unnamed json parameter takes the whole body; one unnamed integer is not callable.
create function conformance.mult_them(json) returns integer language sql immutable as $$
  select ($1->>'x')::int * ($1->>'y')::int
$$;
create function conformance.double_it(integer) returns integer language sql immutable as $$ select $1 * 2 $$;
-- The same function name in the second schema, answering differently.
create function conformance_b.item_count() returns bigint language sql stable as $$ select count(*) from conformance_b.items $$;
create function conformance.item_count() returns bigint language sql stable as $$ select count(*) from conformance.items $$;
-- An identity column for Prefer: missing=default.
create table conformance.notes (id int generated by default as identity primary key, body text, pinned boolean not null default false);

grant all on all tables in schema conformance, conformance_b to anon, authenticated, service_role;
grant execute on all functions in schema conformance, conformance_b to anon, authenticated, service_role;
grant usage on all sequences in schema conformance to anon, authenticated, service_role;

-- Statistics, so that `count=planned` has the planner's figure for a whole table.
analyze conformance.films;
analyze conformance.people;
