"""The OASIS UBL 2.1 reader (``Invoice`` / ``CreditNote``: XRechnung UBL, Peppol BIS): ``UblInvoice`` maps a
document to the ``invoice`` schema, ``UblTerms`` reads the terms ``invoice-en16931`` adds. ``syntaxes.UBL`` holds
both with the UBL writer.
"""

from __future__ import annotations

from extractor.einvoice import read_fields
from extractor.einvoice.embedded import EmbeddedInvoice
from extractor.einvoice.xmltext import decimal_at, find_all, find_one, iso_date, local_name, plain_number, text_at


class UblInvoice:
    """OASIS UBL 2.1 ``Invoice`` and ``CreditNote`` (XRechnung UBL, Peppol BIS)."""

    def __init__(self, root):
        self.root = root
        self.credit = local_name(root) == "CreditNote"

    def map(self) -> EmbeddedInvoice:
        r = self.root
        notes: list[str] = []
        currency = text_at(r, "DocumentCurrencyCode")
        total = find_one(r, "LegalMonetaryTotal")
        totals = {
            "line_total": plain_number(decimal_at(total, "LineExtensionAmount")),
            "charge_total": plain_number(decimal_at(total, "ChargeTotalAmount")),
            "allowance_total": plain_number(decimal_at(total, "AllowanceTotalAmount")),
            "tax_basis_total": plain_number(decimal_at(total, "TaxExclusiveAmount")),
            "tax_total": None,
            "grand_total": plain_number(decimal_at(total, "TaxInclusiveAmount")),
            "prepaid": plain_number(decimal_at(total, "PrepaidAmount")),
            "due_payable": plain_number(decimal_at(total, "PayableAmount")),
        }
        tax_total = read_fields.ubl_tax_total(r, currency)
        totals["tax_total"] = plain_number(decimal_at(tax_total, "TaxAmount"))
        tax_lines = (
            [
                {
                    "rate": plain_number(decimal_at(sub, "TaxCategory", "Percent")),
                    "base": plain_number(decimal_at(sub, "TaxableAmount")),
                    "amount": plain_number(decimal_at(sub, "TaxAmount")),
                }
                for sub in find_all(tax_total, "TaxSubtotal")
            ]
            if tax_total is not None
            else []
        )
        due_date = iso_date(text_at(r, "DueDate")) or iso_date(text_at(r, "PaymentMeans", "PaymentDueDate"))
        data = {
            "invoice_number": text_at(r, "ID"),
            "issue_date": iso_date(text_at(r, "IssueDate")),
            "due_date": due_date,
            "currency": currency,
            "seller": self._party("AccountingSupplierParty"),
            "buyer": self._party("AccountingCustomerParty"),
            "line_items": [self._line(x) for x in find_all(r, "InvoiceLine|CreditNoteLine")],
            "subtotal": totals["line_total"],
            "tax_lines": tax_lines,
            "total": totals["grand_total"],
            "prepaid_amount": totals["prepaid"],
            "amount_due": totals["due_payable"],
            "payment_terms": " ".join(x for x in (text_at(t, "Note") for t in find_all(r, "PaymentTerms")) if x)
            or None,
            "bank_account": read_fields.bank_account(self.root, "UBL", notes),
        }
        read_fields.derive_amount_due(data, totals, notes)
        type_code = text_at(r, "InvoiceTypeCode|CreditNoteTypeCode") or ""
        guideline = text_at(r, "CustomizationID") or ""
        return EmbeddedInvoice(data, "UBL", guideline, type_code, totals=totals, notes=tuple(notes))

    def _party(self, name: str) -> dict | None:
        party = find_one(self.root, name, "Party")
        if party is None:
            return None
        address = find_one(party, "PostalAddress")
        vat_id = tax_id = None
        for scheme in find_all(party, "PartyTaxScheme"):
            company_id = text_at(scheme, "CompanyID")
            if (text_at(scheme, "TaxScheme", "ID") or "").upper() == "VAT":
                vat_id = vat_id or company_id
            else:
                tax_id = tax_id or company_id
        return {
            "name": text_at(party, "PartyName", "Name") or text_at(party, "PartyLegalEntity", "RegistrationName"),
            "address": read_fields.address_of(address, "UBL"),
            "vat_id": vat_id,
            "tax_id": tax_id,
        }

    def _line(self, line) -> dict:
        quantity_el = find_one(line, "InvoicedQuantity|CreditedQuantity")
        price = decimal_at(line, "Price", "PriceAmount")
        basis = decimal_at(line, "Price", "BaseQuantity")
        if price is not None and basis not in (None, 0):
            price = price / basis
        return {
            "description": text_at(line, "Item", "Name") or text_at(line, "Item", "Description"),
            "quantity": plain_number(decimal_at(line, "InvoicedQuantity|CreditedQuantity")),
            "unit": quantity_el.get("unitCode") if quantity_el is not None else None,
            "unit_price": plain_number(price),
            "tax_rate": plain_number(decimal_at(line, "Item", "ClassifiedTaxCategory", "Percent")),
            "amount": plain_number(decimal_at(line, "LineExtensionAmount")),
        }


class UblTerms:
    """The extra terms of a UBL 2.1 ``Invoice`` / ``CreditNote``."""

    def __init__(self, root):
        self.root = root

    def extras(self, notes: list[str]) -> dict:
        r = self.root
        preceding = find_one(r, "BillingReference", "InvoiceDocumentReference")
        means = find_one(r, "PaymentMeans")
        account = text_at(means, "PayeeFinancialAccount", "ID")
        currency = text_at(r, "DocumentCurrencyCode")
        # the one in the document currency, as the invoice reading takes
        tax_total = read_fields.ubl_tax_total(r, currency)
        return {
            "buyer_reference": text_at(r, "BuyerReference"),
            "order_reference": text_at(r, "OrderReference", "ID"),
            "preceding": None
            if text_at(preceding, "ID") is None
            else {"number": text_at(preceding, "ID"), "issue_date": iso_date(text_at(preceding, "IssueDate"))},
            "delivery_date": iso_date(text_at(r, "Delivery", "ActualDeliveryDate")),
            "period": read_fields.period_of(
                iso_date(text_at(r, "InvoicePeriod", "StartDate")), iso_date(text_at(r, "InvoicePeriod", "EndDate"))
            ),
            "seller": self._party("AccountingSupplierParty"),
            "buyer": self._party("AccountingCustomerParty"),
            "lines": [self._line(x) for x in find_all(r, "InvoiceLine|CreditNoteLine")],
            "taxes": [
                {
                    "category": text_at(sub, "TaxCategory", "ID"),
                    "exemption_reason": text_at(sub, "TaxCategory", "TaxExemptionReason"),
                    "exemption_code": text_at(sub, "TaxCategory", "TaxExemptionReasonCode"),
                }
                for sub in find_all(tax_total, "TaxSubtotal")
            ],
            "allowances": [self._allowance(a) for a in find_all(r, "AllowanceCharge")],
            "rounding": plain_number(decimal_at(r, "LegalMonetaryTotal", "PayableRoundingAmount")),
            "payment_means": read_fields.payment_means(text_at(means, "PaymentMeansCode"), notes),
            "account_number": account,  # kept only where the invoice reading found no IBAN in it
        }

    def _party(self, name: str) -> dict:
        party = find_one(self.root, name, "Party")
        return read_fields.party_terms(
            legal_id=text_at(party, "PartyLegalEntity", "CompanyID"),
            identifiers=find_all(party, "PartyIdentification", "ID"),
            contact=read_fields.contact_of(party, "UBL"),
            endpoint=find_one(party, "EndpointID"),
        )

    @staticmethod
    def _line(line) -> dict:
        entries = find_all(line, "AllowanceCharge")
        flags = [(text_at(a, "ChargeIndicator") or "").lower() == "true" for a in entries]
        amounts = [decimal_at(a, "Amount") for a in entries]
        return {
            "item_id": text_at(line, "Item", "SellersItemIdentification", "ID"),
            "allowance": read_fields.summed(amounts, flags, charge=False),
            "charge": read_fields.summed(amounts, flags, charge=True),
            "category": text_at(line, "Item", "ClassifiedTaxCategory", "ID"),
        }

    @staticmethod
    def _allowance(node) -> dict:
        return read_fields.adjustment(
            decimal_at(node, "Amount"),
            text_at(node, "AllowanceChargeReason"),
            decimal_at(node, "TaxCategory", "Percent"),
            text_at(node, "TaxCategory", "ID"),
            charge=(text_at(node, "ChargeIndicator") or "").lower() == "true",
            code=text_at(node, "AllowanceChargeReasonCode"),
            base=decimal_at(node, "BaseAmount"),
            percent=decimal_at(node, "MultiplierFactorNumeric"),
        )
