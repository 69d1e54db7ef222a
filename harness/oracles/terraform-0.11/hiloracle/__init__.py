"""hclspec's Terraform 0.11 oracle: an engine (docs/protocol.md) for the `hil-0.11` dialect,
backed by the real Terraform 0.11.11 binary."""
