"""Reading a CortifyBench case as the client delivers it: the files joined in one text, CSV files, CFDI
4.0 XML (parsed with defusedxml: no entity expansion, no external resources) and the normalisations
of the audit manual (section "Lectura de los archivos")."""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from defusedxml import ElementTree

HEADER = "### archivo: "
CFDI = "{http://www.sat.gob.mx/cfd/4}"
TFD = "{http://www.sat.gob.mx/TimbreFiscalDigital}"
PAGO = "{http://www.sat.gob.mx/Pagos20}"
_SUFFIXES = ("S A P I DE C V", "S DE R L DE C V", "S A DE C V", "SA DE CV", "SAPI DE CV", "S DE RL DE CV")


def join_files(files: dict[str, str]) -> str:
    """The case's files as one text: a header line before each file, in name order."""
    return "".join(f"{HEADER}{name}\n{text.rstrip(chr(10))}\n\n" for name, text in sorted(files.items()))


def split_files(text: str) -> dict[str, str]:
    files: dict[str, str] = {}
    name = None
    lines: list[str] = []
    for line in text.split("\n"):
        if line.startswith(HEADER):
            if name is not None:
                files[name] = "\n".join(lines).rstrip("\n") + "\n"
            name, lines = line[len(HEADER):], []
        elif name is not None:
            lines.append(line)
    if name is not None:
        files[name] = "\n".join(lines).rstrip("\n") + "\n"
    return files


def read_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def plain(text: str) -> str:
    """Upper case, accents removed, every run of non-alphanumeric characters one space, trimmed."""
    decomposed = unicodedata.normalize("NFD", text)
    ascii_text = "".join(c for c in decomposed if not unicodedata.combining(c)).upper()
    return " ".join(re.sub(r"[^A-Z0-9]+", " ", ascii_text).split())


def supplier_key(text: str) -> str:
    """A supplier as written in the log, reduced to compare with the catalogue (name or RFC)."""
    key = plain(text)
    for suffix in _SUFFIXES:
        if key.endswith(" " + suffix):
            key = key[: -len(suffix) - 1]
            break
    return key


def compact(text: str) -> str:
    """A folio or UUID reduced to upper-case letters and digits."""
    return plain(text).replace(" ", "")


def money(text: str) -> Decimal:
    """An amount of the log: "$1,400.00", "1400.00" or "1400"."""
    cleaned = text.replace("$", "").replace(",", "").strip()
    if not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", cleaned):
        raise ValueError(f"not an amount: {text!r}")
    return Decimal(cleaned)


def day(text: str) -> date:
    return date.fromisoformat(text.strip()[:10])


@dataclass(frozen=True)
class Cfdi:
    file: str
    kind: str  # TipoDeComprobante: I (ingreso) or P (pago)
    uuid: str
    serie: str
    folio: str
    fecha: date
    total: Decimal
    emisor: str  # RFC
    receptor: str  # RFC
    metodo: str  # MetodoPago ("" when absent)
    forma: str  # FormaPago ("" when absent)
    pagados: tuple[tuple[str, date], ...]  # type P: (UUID of the paid invoice, date of payment)


def read_cfdi(name: str, text: str) -> Cfdi:
    root = ElementTree.fromstring(text.encode("utf-8"), forbid_dtd=True)
    if root.tag != CFDI + "Comprobante":
        raise ValueError(f"{name}: not a CFDI 4.0 Comprobante")
    emisor, receptor = root.find(CFDI + "Emisor"), root.find(CFDI + "Receptor")
    timbre = root.find(f"{CFDI}Complemento/{TFD}TimbreFiscalDigital")
    if emisor is None or receptor is None or timbre is None:
        raise ValueError(f"{name}: no Emisor, Receptor or TimbreFiscalDigital")
    pagados = []
    for pago in root.iter(PAGO + "Pago"):
        for doc in pago.iter(PAGO + "DoctoRelacionado"):
            pagados.append((doc.get("IdDocumento", "").upper(), day(pago.get("FechaPago", ""))))
    return Cfdi(name, root.get("TipoDeComprobante", ""), timbre.get("UUID", "").upper(), root.get("Serie", ""),
                root.get("Folio", ""), day(root.get("Fecha", "")), Decimal(root.get("Total", "0")),
                emisor.get("Rfc", ""), receptor.get("Rfc", ""), root.get("MetodoPago", ""), root.get("FormaPago", ""),
                tuple(pagados))
