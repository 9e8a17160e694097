"""What a Kathai host asks: the controls (``controls``), ``/move`` completion (``complete``), the
numbered menu and player names typed for seats (``menu``), and the turn clock's move, warnings,
auto answers and labels (``host``)."""
