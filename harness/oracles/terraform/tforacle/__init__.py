"""hclspec's Terraform oracle: an engine (docs/protocol.md) backed by real Terraform (1.15.5 by
default; `versions.py`)."""
