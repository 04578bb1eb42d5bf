"""Writes chess960_starts.txt: White's back rank of the 960 Chess960 starting positions in
Scharnagl order (line n + 1 is position n; Black mirrors it, every pawn on its start square),
from python-chess 1.11.2, a source independent of constmove:

    pip install chess==1.11.2 && python3 chess960_starts.py > chess960_starts.txt"""
import chess

for number in range(960):
    print(chess.Board.from_chess960_pos(number).board_fen().split("/")[7])
