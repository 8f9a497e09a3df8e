"""The archive: where finished games go when they leave Redis (their replay file and their
public summary), behind a small port (``Archive``) with a filesystem adapter (``FileArchive``)
and an in-memory one for tests (``MemoryArchive``). ``service.retention`` moves games there."""

from service.archive.files import FileArchive
from service.archive.memory import MemoryArchive
from service.archive.port import LISTED, Archive, ArchivedGame, listed

__all__ = ["LISTED", "Archive", "ArchivedGame", "FileArchive", "MemoryArchive", "listed"]
