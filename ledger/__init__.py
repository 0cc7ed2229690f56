"""bigtwo-ledger: scorekeeping and money settlement for Big Two played at a real table."""

__version__ = "0.1.0"
