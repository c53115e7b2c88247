"""Map data for the Diplomacy variants: plain dicts, read by ``Map.from_data``."""
