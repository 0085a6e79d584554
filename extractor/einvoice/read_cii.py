"""The UN/CEFACT CII reader (ZUGFeRD 1 ``CrossIndustryDocument``, ZUGFeRD 2 / Factur-X / XRechnung CII
``CrossIndustryInvoice``): ``CiiInvoice`` maps a document to the ``invoice`` schema, ``CiiTerms`` reads the terms
``invoice-en16931`` adds. ``syntaxes.CII`` holds both with the CII writer.
"""

from __future__ import annotations

from extractor.einvoice import read_fields
from extractor.einvoice.embedded import EmbeddedInvoice
from extractor.einvoice.xmltext import decimal_at, find_all, find_one, iso_date, plain_number, text_at


class CiiInvoice:
    """UN/CEFACT Cross Industry Invoice, ZUGFeRD 1 (``CrossIndustryDocument``) and 2 (``CrossIndustryInvoice``)."""

    def __init__(self, root):
        self.root = root
        self.doc = find_one(root, "ExchangedDocument|HeaderExchangedDocument")
        self.tx = find_one(root, "SupplyChainTradeTransaction|SpecifiedSupplyChainTradeTransaction")
        self.agreement = find_one(self.tx, "ApplicableHeaderTradeAgreement|ApplicableSupplyChainTradeAgreement")
        self.settlement = find_one(self.tx, "ApplicableHeaderTradeSettlement|ApplicableSupplyChainTradeSettlement")
        self.summation = find_one(
            self.settlement, "SpecifiedTradeSettlementHeaderMonetarySummation|SpecifiedTradeSettlementMonetarySummation"
        )

    def map(self) -> EmbeddedInvoice:
        notes: list[str] = []
        currency = text_at(self.settlement, "InvoiceCurrencyCode")
        if currency is None:
            grand = find_one(self.summation, "GrandTotalAmount")
            currency = grand.get("currencyID") if grand is not None else None
        s = self.summation
        totals = {
            "line_total": plain_number(decimal_at(s, "LineTotalAmount")),
            "charge_total": plain_number(decimal_at(s, "ChargeTotalAmount")),
            "allowance_total": plain_number(decimal_at(s, "AllowanceTotalAmount")),
            "tax_basis_total": plain_number(decimal_at(s, "TaxBasisTotalAmount")),
            "tax_total": plain_number(decimal_at(s, "TaxTotalAmount", currency=currency)),
            "grand_total": plain_number(decimal_at(s, "GrandTotalAmount", currency=currency)),
            "prepaid": plain_number(decimal_at(s, "TotalPrepaidAmount")),
            "due_payable": plain_number(decimal_at(s, "DuePayableAmount")),
        }
        lines, skipped = self._lines()
        if skipped:
            notes.append(f"{skipped} text-only line position(s) without product, quantity or amount left out")
        terms = find_all(self.settlement, "SpecifiedTradePaymentTerms")
        due_date = next(
            (d for d in (iso_date(text_at(t, "DueDateDateTime", "DateTimeString")) for t in terms) if d), None
        )
        descriptions = [d for d in (text_at(t, "Description") for t in terms) if d]
        data = {
            "invoice_number": text_at(self.doc, "ID"),
            "issue_date": iso_date(text_at(self.doc, "IssueDateTime", "DateTimeString")),
            "due_date": due_date,
            "currency": currency,
            "seller": self._party("SellerTradeParty"),
            "buyer": self._party("BuyerTradeParty"),
            "line_items": lines,
            "subtotal": totals["line_total"],
            "tax_lines": [self._tax(t) for t in find_all(self.settlement, "ApplicableTradeTax")],
            "total": totals["grand_total"],
            "prepaid_amount": totals["prepaid"],
            "amount_due": totals["due_payable"],
            "payment_terms": " ".join(descriptions) or None,
            "bank_account": read_fields.bank_account(self.settlement, "CII", notes),
        }
        read_fields.derive_amount_due(data, totals, notes)
        context = find_one(self.root, "ExchangedDocumentContext|SpecifiedExchangedDocumentContext")
        guideline = text_at(context, "GuidelineSpecifiedDocumentContextParameter", "ID") or ""
        type_code = text_at(self.doc, "TypeCode") or ""
        return EmbeddedInvoice(
            data, "CII", guideline, type_code, totals=totals, skipped_lines=skipped, notes=tuple(notes)
        )

    def _party(self, name: str) -> dict | None:
        party = find_one(self.agreement, name)
        if party is None:
            return None
        address = find_one(party, "PostalTradeAddress")
        vat_id = tax_id = None
        for reg in find_all(party, "SpecifiedTaxRegistration", "ID"):
            scheme, value = (reg.get("schemeID") or "").upper(), " ".join((reg.text or "").split())
            if scheme == "VA" and vat_id is None and value:
                vat_id = value
            elif scheme == "FC" and tax_id is None and value:
                tax_id = value
        return {
            "name": text_at(party, "Name"),
            "address": read_fields.address_of(address, "CII"),
            "vat_id": vat_id,
            "tax_id": tax_id,
        }

    def _lines(self) -> tuple[list[dict], int]:
        lines = []
        positions, skipped = read_fields.cii_positions(self.tx)
        for item, delivery, settlement, product, amount in positions:
            agreement = find_one(item, "SpecifiedLineTradeAgreement|SpecifiedSupplyChainTradeAgreement")
            quantity_el = find_one(delivery, "BilledQuantity")
            price = decimal_at(agreement, "NetPriceProductTradePrice", "ChargeAmount")
            basis = decimal_at(agreement, "NetPriceProductTradePrice", "BasisQuantity")
            if price is not None and basis not in (None, 0):
                price = price / basis
            lines.append(
                {
                    "description": text_at(product, "Name") or text_at(product, "Description"),
                    "quantity": plain_number(decimal_at(delivery, "BilledQuantity")),
                    "unit": quantity_el.get("unitCode") if quantity_el is not None else None,
                    "unit_price": plain_number(price),
                    "tax_rate": plain_number(
                        decimal_at(settlement, "ApplicableTradeTax", "RateApplicablePercent|ApplicablePercent")
                    ),
                    "amount": plain_number(amount),
                }
            )
        return lines, skipped

    @staticmethod
    def _tax(tax) -> dict:
        return {
            "rate": plain_number(decimal_at(tax, "RateApplicablePercent|ApplicablePercent")),
            "base": plain_number(decimal_at(tax, "BasisAmount")),
            "amount": plain_number(decimal_at(tax, "CalculatedAmount")),
        }


class CiiTerms:
    """The extra terms of a CII document (ZUGFeRD 1's element names where they differ)."""

    def __init__(self, root):
        self.root = root
        self.tx = find_one(root, "SupplyChainTradeTransaction|SpecifiedSupplyChainTradeTransaction")
        self.agreement = find_one(self.tx, "ApplicableHeaderTradeAgreement|ApplicableSupplyChainTradeAgreement")
        self.delivery = find_one(self.tx, "ApplicableHeaderTradeDelivery|ApplicableSupplyChainTradeDelivery")
        self.settlement = find_one(self.tx, "ApplicableHeaderTradeSettlement|ApplicableSupplyChainTradeSettlement")
        self.summation = find_one(
            self.settlement, "SpecifiedTradeSettlementHeaderMonetarySummation|SpecifiedTradeSettlementMonetarySummation"
        )

    def extras(self, notes: list[str]) -> dict:
        s = self.settlement
        preceding = find_one(s, "InvoiceReferencedDocument")
        period = find_one(s, "BillingSpecifiedPeriod")
        means = find_one(s, "SpecifiedTradeSettlementPaymentMeans")
        return {
            "buyer_reference": text_at(self.agreement, "BuyerReference"),
            "order_reference": text_at(self.agreement, "BuyerOrderReferencedDocument", "IssuerAssignedID"),
            "preceding": None
            if text_at(preceding, "IssuerAssignedID") is None
            else {
                "number": text_at(preceding, "IssuerAssignedID"),
                "issue_date": iso_date(text_at(preceding, "FormattedIssueDateTime", "DateTimeString")),
            },
            "delivery_date": iso_date(
                text_at(self.delivery, "ActualDeliverySupplyChainEvent", "OccurrenceDateTime", "DateTimeString")
            ),
            "period": read_fields.period_of(
                iso_date(text_at(period, "StartDateTime", "DateTimeString")),
                iso_date(text_at(period, "EndDateTime", "DateTimeString")),
            ),
            "seller": self._party("SellerTradeParty"),
            "buyer": self._party("BuyerTradeParty"),
            "lines": self._lines(),
            "taxes": [
                {
                    "category": text_at(t, "CategoryCode"),
                    "exemption_reason": text_at(t, "ExemptionReason"),
                    "exemption_code": text_at(t, "ExemptionReasonCode"),
                }
                for t in find_all(s, "ApplicableTradeTax")
            ],
            "allowances": [self._allowance(a) for a in find_all(s, "SpecifiedTradeAllowanceCharge")]
            + [self._logistics(c) for c in find_all(s, "SpecifiedLogisticsServiceCharge")],
            "rounding": plain_number(decimal_at(self.summation, "RoundingAmount")),
            "payment_means": read_fields.payment_means(text_at(means, "TypeCode"), notes),
            # an IBANID that is no IBAN (the invoice reading leaves it out) is still the account to pay to
            "account_number": text_at(means, "PayeePartyCreditorFinancialAccount", "ProprietaryID|IBANID"),
        }

    def _party(self, name: str) -> dict:
        party = find_one(self.agreement, name)
        return read_fields.party_terms(
            legal_id=text_at(party, "SpecifiedLegalOrganization", "ID"),
            identifiers=find_all(party, "GlobalID"),
            contact=read_fields.contact_of(party, "CII"),
            endpoint=find_one(party, "URIUniversalCommunication", "URIID"),
        )

    def _lines(self) -> list[dict]:
        out = []
        for _, _, settlement, product, _ in read_fields.cii_positions(self.tx)[0]:  # the invoice reading's lines
            entries = find_all(settlement, "SpecifiedTradeAllowanceCharge")
            flags = [(text_at(a, "ChargeIndicator", "Indicator") or "").lower() == "true" for a in entries]
            amounts = [decimal_at(a, "ActualAmount") for a in entries]
            out.append(
                {
                    "item_id": text_at(product, "SellerAssignedID"),
                    "allowance": read_fields.summed(amounts, flags, charge=False),
                    "charge": read_fields.summed(amounts, flags, charge=True),
                    "category": text_at(settlement, "ApplicableTradeTax", "CategoryCode"),
                }
            )
        return out

    @staticmethod
    def _allowance(node) -> dict:
        return _cii_adjustment(
            node,
            ("ActualAmount", "Reason", "CategoryTradeTax"),
            charge=(text_at(node, "ChargeIndicator", "Indicator") or "").lower() == "true",
            code=text_at(node, "ReasonCode"),
            base=decimal_at(node, "BasisAmount"),
            percent=decimal_at(node, "CalculationPercent"),
        )

    @staticmethod
    def _logistics(node) -> dict:
        """A logistics service charge (freight; ZUGFeRD 1 and EXTENDED): a document charge in EN 16931 (BG-21)."""
        return _cii_adjustment(node, ("AppliedAmount", "Description", "AppliedTradeTax"), charge=True)


def _cii_adjustment(node, names: tuple[str, str, str], *, charge: bool, code=None, base=None, percent=None) -> dict:
    """A CII allowance or charge: its amount, reason and tax by their element names (``names``), the rest given."""
    amount, reason, tax_name = names
    tax = find_one(node, tax_name)
    return read_fields.adjustment(
        decimal_at(node, amount),
        text_at(node, reason),
        decimal_at(tax, "RateApplicablePercent|ApplicablePercent"),
        text_at(tax, "CategoryCode"),
        charge=charge,
        code=code,
        base=base,
        percent=percent,
    )
