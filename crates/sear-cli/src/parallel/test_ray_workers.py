"""Unit tests of ray_workers.py's connection: a Ray Client head whose per-client server
failed is tried again; an unreachable address and a GCS address are tried once.
Run by crates/sear-cli/tests/cluster.rs (python -m unittest)."""
import unittest
from unittest import mock

import ray_workers

HEAD_FAILED = (
    "Initialization failure from server:\nTraceback (most recent call last):\n"
    "RuntimeError: Starting Ray client server failed. See ray_client_server_23000.err"
)


class FakeRay:
    """ray.init raises the given errors in turn, then succeeds."""

    def __init__(self, errors):
        self.errors = list(errors)
        self.inits = 0
        self.shutdowns = 0

    def init(self, address, **_):
        self.inits += 1
        if self.errors:
            raise self.errors.pop(0)

    def shutdown(self):
        self.shutdowns += 1


@mock.patch("ray_workers.time.sleep", lambda _: None)
class ConnectTest(unittest.TestCase):
    def test_a_failed_client_server_is_tried_again(self):
        ray = FakeRay([ConnectionAbortedError(HEAD_FAILED)])
        self.assertIsNone(ray_workers.connect(ray, "ray://127.0.0.1:10001", {}))
        self.assertEqual((ray.inits, ray.shutdowns), (2, 1))

    def test_tries_end_with_the_last_error(self):
        ray = FakeRay([ConnectionAbortedError(HEAD_FAILED)] * 5)
        error = ray_workers.connect(ray, "ray://127.0.0.1:10001", {})
        self.assertEqual(ray.inits, ray_workers.CLIENT_ATTEMPTS)
        self.assertTrue(error.splitlines()[-1].startswith("RuntimeError: Starting Ray client"))

    def test_an_unreachable_head_is_tried_once(self):
        ray = FakeRay([ConnectionError("ray client connection timeout")])
        error = ray_workers.connect(ray, "ray://127.0.0.1:1", {})
        self.assertEqual(ray.inits, 1)
        self.assertEqual(error, "ConnectionError: ray client connection timeout")

    def test_a_gcs_address_is_tried_once(self):
        ray = FakeRay([ConnectionAbortedError(HEAD_FAILED)])
        self.assertIsNotNone(ray_workers.connect(ray, "127.0.0.1:6379", {}))
        self.assertEqual(ray.inits, 1)


if __name__ == "__main__":
    unittest.main()
