--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: extractor_jobs; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.extractor_jobs (
    seq bigint NOT NULL,
    id text NOT NULL,
    tenant text NOT NULL,
    status text NOT NULL,
    created double precision NOT NULL,
    started double precision,
    finished double precision,
    idempotency_key text,
    filename text NOT NULL,
    sha256 text NOT NULL,
    fingerprint text NOT NULL,
    options text NOT NULL,
    upload bytea,
    records text,
    error text,
    runs integer DEFAULT 0 NOT NULL,
    claim text,
    lease_until double precision,
    callback_url text,
    callback_state text,
    callback_next double precision,
    deliveries text,
    answered_from text,
    request_id text,
    source_url text,
    callback_from integer
);


--
-- Name: extractor_jobs_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.extractor_jobs ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.extractor_jobs_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: register_accounts; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.register_accounts (
    tenant text NOT NULL,
    supplier_key text NOT NULL,
    iban text NOT NULL,
    source text NOT NULL,
    by_whom text,
    at text NOT NULL
);


--
-- Name: register_decisions; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.register_decisions (
    tenant text NOT NULL,
    sha256 text NOT NULL,
    place text NOT NULL,
    original_sha256 text NOT NULL,
    original_place text NOT NULL,
    decision text NOT NULL,
    by_whom text NOT NULL,
    at text NOT NULL
);


--
-- Name: register_entries; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.register_entries (
    seq bigint NOT NULL,
    tenant text NOT NULL,
    sha256 text NOT NULL,
    fingerprint text NOT NULL,
    place text NOT NULL,
    part integer NOT NULL,
    kind text NOT NULL,
    source text NOT NULL,
    seen_at text NOT NULL,
    supplier_key text,
    supplier_name text,
    document_type text NOT NULL,
    number text,
    printed text,
    issue_date text,
    total text,
    currency text,
    iban text,
    verified integer NOT NULL,
    total_claimed integer NOT NULL,
    status text NOT NULL,
    result text NOT NULL
);


--
-- Name: register_entries_seq_seq; Type: SEQUENCE; Schema: public; Owner: -
--

ALTER TABLE public.register_entries ALTER COLUMN seq ADD GENERATED ALWAYS AS IDENTITY (
    SEQUENCE NAME public.register_entries_seq_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1
);


--
-- Name: register_file_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.register_file_keys (
    tenant text NOT NULL,
    sha256 text NOT NULL,
    entry_seq bigint NOT NULL
);


--
-- Name: register_invoice_keys; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.register_invoice_keys (
    tenant text NOT NULL,
    supplier_key text NOT NULL,
    document_type text NOT NULL,
    number text NOT NULL,
    entry_seq bigint NOT NULL
);


--
-- Name: register_meta; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.register_meta (
    name text NOT NULL,
    value text NOT NULL
);


--
-- Name: register_suppliers; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.register_suppliers (
    tenant text NOT NULL,
    key text NOT NULL,
    name text,
    name_norm text,
    vat_id text,
    tax_number text,
    bic text,
    country text,
    known integer NOT NULL,
    source text NOT NULL,
    created_at text NOT NULL
);


--
-- Data for Name: extractor_jobs; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.extractor_jobs OVERRIDING SYSTEM VALUE VALUES (3, 'wsxQSzE7JJ9Mdyek', 'acme', 'queued', 1796668595.027451, NULL, NULL, 'key-2', 'doc2.pdf', '7a89f07afb4d1b977149fc8b7f2a180057b5e742d5d31d5339a2b3ec23427d26', 'settings-1', '{"n": 2}', '\x646f63756d656e742032', NULL, NULL, 0, NULL, NULL, NULL, NULL, NULL, '[]', NULL, NULL, NULL, NULL);
INSERT INTO public.extractor_jobs OVERRIDING SYSTEM VALUE VALUES (1, '9XZbzrKAwmUQnxyx', 'acme', 'done', 1796668594.855465, 1796668595.06671, 1796668595.108619, 'key-0', 'doc0.pdf', '19e6bd2cd5bf609698c0c4a92280ad54d614eca1576244d9c9916b3721560278', 'settings-1', '{"n": 0}', NULL, '[{"source": "doc0.pdf", "status": "ok"}]', NULL, 1, 'M5DO14nQ6vJKDjUI', NULL, 'https://hooks.example/done', 'pending', 1796668595.108619, '[]', NULL, NULL, NULL, NULL);
INSERT INTO public.extractor_jobs OVERRIDING SYSTEM VALUE VALUES (2, 'FTxo5steZLPRtNCq', 'acme', 'failed', 1796668594.975552, 1796668595.144451, 1796668595.215122, 'key-1', 'doc1.pdf', 'caa0c419ed4b5d7628d1ce29a28ca67850f779c4d929febffc192a514f1e186e', 'settings-1', '{"n": 1}', NULL, NULL, 'the core raised', 1, 'qjwPgjDYEbr0AvWj', NULL, NULL, NULL, 1796668595.215122, '[]', NULL, NULL, NULL, NULL);


--
-- Data for Name: register_accounts; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.register_accounts VALUES ('', 'vat:DE271828180', 'DE89370400440532013000', 'ok_record', NULL, '2026-12-07T18:36:36Z');


--
-- Data for Name: register_decisions; Type: TABLE DATA; Schema: public; Owner: -
--



--
-- Data for Name: register_entries; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.register_entries OVERRIDING SYSTEM VALUE VALUES (1, '', '70a9918dafecc17d7d04ac095e7f3cd78e9920d261a5c597e1da883fbfd41547', '', '/inbox/0.pdf', 0, 'record', '<root>/samples/invoice-ch-chf.pdf', '2026-12-07T18:36:36Z', 'vat:DE271828180', 'Nordlicht Bürotechnik GmbH', 'invoice', 'RE2026117', 'RE-2026-0117', '2026-01-31', '2377.78', 'EUR', NULL, 0, 0, 'review', '{"scope": "register", "register": "postgresql://extractor:***@127.0.0.1:5432/extractor_stores_e61cea9", "entry": "70a9918dafecc17d7d04ac095e7f3cd78e9920d261a5c597e1da883fbfd41547:", "supplier": {"key": "vat:DE271828180", "name": "Nordlicht Bürotechnik GmbH", "known": false, "trusted_accounts": []}, "document_type": "invoice", "number": "RE2026117", "verified": false, "claims": {"vat_id": false, "number": false, "iban": false, "total": false}, "findings": [{"code": "new_supplier", "message": "Nordlicht Bürotechnik GmbH is not a known supplier yet", "severity": "note", "original": null}, {"code": "unverified", "message": "registered as unverified: its number or its supplier''s identifier is neither in embedded XML nor found on the page, so it is never taken as another document''s original", "severity": "note", "original": null}]}');
INSERT INTO public.register_entries OVERRIDING SYSTEM VALUE VALUES (2, '', '68f1384849a593bfc51b1b96597076394e421018ce93da62b2f03e63a97204e9', '', '/inbox/1.pdf', 0, 'record', '<root>/samples/invoice-de-einfach.pdf', '2026-12-07T18:36:36Z', 'vat:DE271828180', 'Nordlicht Bürotechnik GmbH', 'invoice', 'RE2026117', 'RE-2026-0117', '2026-01-31', '2377.78', 'EUR', 'DE89370400440532013000', 1, 1, 'ok', '{"scope": "register", "register": "postgresql://extractor:***@127.0.0.1:5432/extractor_stores_e61cea9", "entry": "68f1384849a593bfc51b1b96597076394e421018ce93da62b2f03e63a97204e9:", "supplier": {"key": "vat:DE271828180", "name": "Nordlicht Bürotechnik GmbH", "known": false, "trusted_accounts": []}, "document_type": "invoice", "number": "RE2026117", "verified": true, "claims": {"vat_id": true, "number": true, "iban": true, "total": true}, "findings": [{"code": "bank_account_not_trusted", "message": "Nordlicht Bürotechnik GmbH has no trusted account yet: ****3000 is not trusted either (an ok record, an import or a person''s review trusts it)", "severity": "note", "original": null}, {"code": "new_supplier", "message": "Nordlicht Bürotechnik GmbH is not a known supplier yet", "severity": "note", "original": null}]}');
INSERT INTO public.register_entries OVERRIDING SYSTEM VALUE VALUES (3, '', '3bc568bfb77c47c303f5c59961da58809efd9e0eb59e55237c76ab99c9582949', '', '/inbox/2.pdf', 0, 'record', '<root>/samples/invoice-en-multipage.pdf', '2026-12-07T18:36:36Z', 'vat:DE271828180', 'Nordlicht Bürotechnik GmbH', 'invoice', 'RE2026117', 'RE-2026-0117', '2026-01-31', '2377.78', 'EUR', NULL, 0, 0, 'review', '{"scope": "register", "register": "postgresql://extractor:***@127.0.0.1:5432/extractor_stores_e61cea9", "entry": "3bc568bfb77c47c303f5c59961da58809efd9e0eb59e55237c76ab99c9582949:", "supplier": {"key": "vat:DE271828180", "name": "Nordlicht Bürotechnik GmbH", "known": true, "trusted_accounts": [{"iban": "****3000", "source": "ok_record", "by": null, "at": "2026-12-07T18:36:36Z"}]}, "document_type": "invoice", "number": "RE2026117", "verified": false, "claims": {"vat_id": false, "number": false, "iban": false, "total": false}, "findings": [{"code": "unverified", "message": "registered as unverified: its number or its supplier''s identifier is neither in embedded XML nor found on the page, so it is never taken as another document''s original", "severity": "note", "original": null}]}');
INSERT INTO public.register_entries OVERRIDING SYSTEM VALUE VALUES (4, '', 'adbd5f5d692c35c0545559d343cca2bb39920a36fbf8d84da526820df1353c9f', '', '/inbox/3.pdf', 0, 'record', '<root>/samples/invoice-fr-services.pdf', '2026-12-07T18:36:36Z', 'vat:DE271828180', 'Nordlicht Bürotechnik GmbH', 'invoice', 'RE2026117', 'RE-2026-0117', '2026-01-31', '2377.78', 'EUR', NULL, 0, 0, 'review', '{"scope": "register", "register": "postgresql://extractor:***@127.0.0.1:5432/extractor_stores_e61cea9", "entry": "adbd5f5d692c35c0545559d343cca2bb39920a36fbf8d84da526820df1353c9f:", "supplier": {"key": "vat:DE271828180", "name": "Nordlicht Bürotechnik GmbH", "known": true, "trusted_accounts": [{"iban": "****3000", "source": "ok_record", "by": null, "at": "2026-12-07T18:36:36Z"}]}, "document_type": "invoice", "number": "RE2026117", "verified": false, "claims": {"vat_id": false, "number": false, "iban": false, "total": false}, "findings": [{"code": "unverified", "message": "registered as unverified: its number or its supplier''s identifier is neither in embedded XML nor found on the page, so it is never taken as another document''s original", "severity": "note", "original": null}]}');
INSERT INTO public.register_entries OVERRIDING SYSTEM VALUE VALUES (5, '', 'd4f0cdca6935f3634c1061db3077ff6138d6f1cb62acb9cafd7ed92a0098e7c5', '', '/inbox/4.pdf', 0, 'record', '<root>/samples/invoice-jp-yen.pdf', '2026-12-07T18:36:36Z', 'vat:DE271828180', 'Nordlicht Bürotechnik GmbH', 'invoice', 'RE2026117', 'RE-2026-0117', '2026-01-31', '2377.78', 'EUR', NULL, 0, 0, 'review', '{"scope": "register", "register": "postgresql://extractor:***@127.0.0.1:5432/extractor_stores_e61cea9", "entry": "d4f0cdca6935f3634c1061db3077ff6138d6f1cb62acb9cafd7ed92a0098e7c5:", "supplier": {"key": "vat:DE271828180", "name": "Nordlicht Bürotechnik GmbH", "known": true, "trusted_accounts": [{"iban": "****3000", "source": "ok_record", "by": null, "at": "2026-12-07T18:36:36Z"}]}, "document_type": "invoice", "number": "RE2026117", "verified": false, "claims": {"vat_id": false, "number": false, "iban": false, "total": false}, "findings": [{"code": "unverified", "message": "registered as unverified: its number or its supplier''s identifier is neither in embedded XML nor found on the page, so it is never taken as another document''s original", "severity": "note", "original": null}]}');
INSERT INTO public.register_entries OVERRIDING SYSTEM VALUE VALUES (6, '', '0bad0572cb4c0123ba9affd981e464413ee4d64197634dac881d044b8fe53b77', '', '/inbox/5.pdf', 0, 'record', '<root>/samples/invoice-scan.pdf', '2026-12-07T18:36:36Z', 'vat:DE271828180', 'Nordlicht Bürotechnik GmbH', 'invoice', 'RE2026117', 'RE-2026-0117', '2026-01-31', '2377.78', 'EUR', NULL, 0, 0, 'review', '{"scope": "register", "register": "postgresql://extractor:***@127.0.0.1:5432/extractor_stores_e61cea9", "entry": "0bad0572cb4c0123ba9affd981e464413ee4d64197634dac881d044b8fe53b77:", "supplier": {"key": "vat:DE271828180", "name": "Nordlicht Bürotechnik GmbH", "known": true, "trusted_accounts": [{"iban": "****3000", "source": "ok_record", "by": null, "at": "2026-12-07T18:36:36Z"}]}, "document_type": "invoice", "number": "RE2026117", "verified": false, "claims": {"vat_id": false, "number": false, "iban": false, "total": false}, "findings": [{"code": "unverified", "message": "registered as unverified: its number or its supplier''s identifier is neither in embedded XML nor found on the page, so it is never taken as another document''s original", "severity": "note", "original": null}]}');
INSERT INTO public.register_entries OVERRIDING SYSTEM VALUE VALUES (7, '', 'f08ead7b3a7436de8f233022592f868d5e18776c6b66ff84c618001feb6e2aaa', '', '/inbox/6.pdf', 0, 'record', '<root>/samples/invoice-us.png', '2026-12-07T18:36:37Z', 'vat:DE271828180', 'Nordlicht Bürotechnik GmbH', 'invoice', 'RE2026117', 'RE-2026-0117', '2026-01-31', '2377.78', 'EUR', NULL, 0, 0, 'review', '{"scope": "register", "register": "postgresql://extractor:***@127.0.0.1:5432/extractor_stores_e61cea9", "entry": "f08ead7b3a7436de8f233022592f868d5e18776c6b66ff84c618001feb6e2aaa:", "supplier": {"key": "vat:DE271828180", "name": "Nordlicht Bürotechnik GmbH", "known": true, "trusted_accounts": [{"iban": "****3000", "source": "ok_record", "by": null, "at": "2026-12-07T18:36:36Z"}]}, "document_type": "invoice", "number": "RE2026117", "verified": false, "claims": {"vat_id": false, "number": false, "iban": false, "total": false}, "findings": [{"code": "unverified", "message": "registered as unverified: its number or its supplier''s identifier is neither in embedded XML nor found on the page, so it is never taken as another document''s original", "severity": "note", "original": null}]}');
INSERT INTO public.register_entries OVERRIDING SYSTEM VALUE VALUES (8, '', 'c43acce0798982bb29f42f05395eafca80eb06649f2611ae2ec3198eefaa3788', '', '/inbox/7.pdf', 0, 'record', '<root>/samples/receipt-cafe.pdf', '2026-12-07T18:36:37Z', 'vat:DE271828180', 'Nordlicht Bürotechnik GmbH', 'invoice', 'RE2026117', 'RE-2026-0117', '2026-01-31', '2377.78', 'EUR', NULL, 0, 0, 'review', '{"scope": "register", "register": "postgresql://extractor:***@127.0.0.1:5432/extractor_stores_e61cea9", "entry": "c43acce0798982bb29f42f05395eafca80eb06649f2611ae2ec3198eefaa3788:", "supplier": {"key": "vat:DE271828180", "name": "Nordlicht Bürotechnik GmbH", "known": true, "trusted_accounts": [{"iban": "****3000", "source": "ok_record", "by": null, "at": "2026-12-07T18:36:36Z"}]}, "document_type": "invoice", "number": "RE2026117", "verified": false, "claims": {"vat_id": false, "number": false, "iban": false, "total": false}, "findings": [{"code": "unverified", "message": "registered as unverified: its number or its supplier''s identifier is neither in embedded XML nor found on the page, so it is never taken as another document''s original", "severity": "note", "original": null}]}');


--
-- Data for Name: register_file_keys; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.register_file_keys VALUES ('', '70a9918dafecc17d7d04ac095e7f3cd78e9920d261a5c597e1da883fbfd41547', 1);
INSERT INTO public.register_file_keys VALUES ('', '68f1384849a593bfc51b1b96597076394e421018ce93da62b2f03e63a97204e9', 2);
INSERT INTO public.register_file_keys VALUES ('', '3bc568bfb77c47c303f5c59961da58809efd9e0eb59e55237c76ab99c9582949', 3);
INSERT INTO public.register_file_keys VALUES ('', 'adbd5f5d692c35c0545559d343cca2bb39920a36fbf8d84da526820df1353c9f', 4);
INSERT INTO public.register_file_keys VALUES ('', 'd4f0cdca6935f3634c1061db3077ff6138d6f1cb62acb9cafd7ed92a0098e7c5', 5);
INSERT INTO public.register_file_keys VALUES ('', '0bad0572cb4c0123ba9affd981e464413ee4d64197634dac881d044b8fe53b77', 6);
INSERT INTO public.register_file_keys VALUES ('', 'f08ead7b3a7436de8f233022592f868d5e18776c6b66ff84c618001feb6e2aaa', 7);
INSERT INTO public.register_file_keys VALUES ('', 'c43acce0798982bb29f42f05395eafca80eb06649f2611ae2ec3198eefaa3788', 8);


--
-- Data for Name: register_invoice_keys; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.register_invoice_keys VALUES ('', 'vat:DE271828180', 'invoice', 'RE2026117', 2);


--
-- Data for Name: register_meta; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.register_meta VALUES ('schema_version', '1');


--
-- Data for Name: register_suppliers; Type: TABLE DATA; Schema: public; Owner: -
--

INSERT INTO public.register_suppliers VALUES ('', 'vat:DE271828180', 'Nordlicht Bürotechnik GmbH', 'nordlicht burotechnik gmbh', 'DE271828180', '4381508156', NULL, NULL, 1, 'record', '2026-12-07T18:36:36Z');


--
-- Name: extractor_jobs_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.extractor_jobs_seq_seq', 3, true);


--
-- Name: register_entries_seq_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.register_entries_seq_seq', 8, true);


--
-- Name: extractor_jobs extractor_jobs_id_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.extractor_jobs
    ADD CONSTRAINT extractor_jobs_id_key UNIQUE (id);


--
-- Name: extractor_jobs extractor_jobs_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.extractor_jobs
    ADD CONSTRAINT extractor_jobs_pkey PRIMARY KEY (seq);


--
-- Name: register_accounts register_accounts_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.register_accounts
    ADD CONSTRAINT register_accounts_pkey PRIMARY KEY (tenant, supplier_key, iban);


--
-- Name: register_decisions register_decisions_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.register_decisions
    ADD CONSTRAINT register_decisions_pkey PRIMARY KEY (tenant, sha256, place, original_sha256, original_place);


--
-- Name: register_entries register_entries_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.register_entries
    ADD CONSTRAINT register_entries_pkey PRIMARY KEY (seq);


--
-- Name: register_entries register_entries_tenant_sha256_fingerprint_place_part_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.register_entries
    ADD CONSTRAINT register_entries_tenant_sha256_fingerprint_place_part_key UNIQUE (tenant, sha256, fingerprint, place, part);


--
-- Name: register_file_keys register_file_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.register_file_keys
    ADD CONSTRAINT register_file_keys_pkey PRIMARY KEY (tenant, sha256);


--
-- Name: register_invoice_keys register_invoice_keys_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.register_invoice_keys
    ADD CONSTRAINT register_invoice_keys_pkey PRIMARY KEY (tenant, supplier_key, document_type, number);


--
-- Name: register_meta register_meta_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.register_meta
    ADD CONSTRAINT register_meta_pkey PRIMARY KEY (name);


--
-- Name: register_suppliers register_suppliers_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.register_suppliers
    ADD CONSTRAINT register_suppliers_pkey PRIMARY KEY (tenant, key);


--
-- Name: extractor_jobs_callbacks; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX extractor_jobs_callbacks ON public.extractor_jobs USING btree (callback_state, callback_next);


--
-- Name: extractor_jobs_idempotency; Type: INDEX; Schema: public; Owner: -
--

CREATE UNIQUE INDEX extractor_jobs_idempotency ON public.extractor_jobs USING btree (tenant, idempotency_key) WHERE (idempotency_key IS NOT NULL);


--
-- Name: extractor_jobs_status; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX extractor_jobs_status ON public.extractor_jobs USING btree (status, seq);


--
-- Name: extractor_jobs_tenant; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX extractor_jobs_tenant ON public.extractor_jobs USING btree (tenant, seq);


--
-- Name: register_accounts_iban; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX register_accounts_iban ON public.register_accounts USING btree (tenant, iban);


--
-- Name: register_entries_amount; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX register_entries_amount ON public.register_entries USING btree (tenant, supplier_key, currency, total, issue_date);


--
-- Name: register_entries_place; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX register_entries_place ON public.register_entries USING btree (tenant, place);


--
-- Name: register_file_keys_entry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX register_file_keys_entry ON public.register_file_keys USING btree (entry_seq);


--
-- Name: register_invoice_keys_entry; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX register_invoice_keys_entry ON public.register_invoice_keys USING btree (entry_seq);


--
-- Name: register_suppliers_name; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX register_suppliers_name ON public.register_suppliers USING btree (tenant, name_norm);


--
-- PostgreSQL database dump complete
--


