// The walk's search (src/simulate/fast-walk.ts: firstExit, firstInBlock, scanCandles, fastWalk)
// ported line for line to C++, to measure how far the JavaScript kernel is from native code on the
// same machine, data and algorithm (bench/native-walk.bench.ts; docs/engine.md §11). Not part of
// the product. Usage: walk DIR RUNS — reads the series' block structures and the trades written
// by the bench into DIR, walks every trade RUNS times, checks every output against the
// JavaScript walk's, and prints one JSON line.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

namespace {

template <class T>
std::vector<T> readColumn(const std::string& dir, const char* name) {
  std::string path = dir + "/" + name;
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(2);
  }
  std::fseek(f, 0, SEEK_END);
  long size = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  std::vector<T> v(size / sizeof(T));
  if (std::fread(v.data(), 1, size, f) != static_cast<size_t>(size)) std::exit(2);
  std::fclose(f);
  return v;
}

constexpr int SHIFT = 4, BLOCK = 16, SUPER_SHIFT = 8, SUPER = 256, PER_SUPER = 16;
const double *H, *L, *W, *IS, *SU;
const uint8_t* CA;
int n, windowCount;
// Scratch as in fast-walk.ts: lower level, upper level, passed high, passed low.
double io[4];

int scanCandles(int k) {
  double below = io[0], above = io[1], maxH = -INFINITY, minL = INFINITY;
  for (; k < n; k++) {
    double l = L[k], h = H[k];
    if (l <= below || h >= above) break;
    if (h > maxH) maxH = h;
    if (l < minL) minL = l;
  }
  io[2] = maxH;
  io[3] = minL;
  return k;
}

int notReached(double l, double h, double below, double above) { return !(l <= below) & !(h >= above); }

int firstInBlock(int b) {
  double below = io[0], above = io[1], maxH = io[2], minL = io[3];
  int first = b << SHIFT, f4 = 4 * first;
  int g = notReached(L[first + CA[f4 + 15]], H[first + CA[f4 + 14]], below, above) +
          notReached(L[first + CA[f4 + 31]], H[first + CA[f4 + 30]], below, above) +
          notReached(L[first + CA[f4 + 47]], H[first + CA[f4 + 46]], below, above);
  int q = f4 + 16 * g;
  int k = first + 4 * g + notReached(L[first + CA[q + 3]], H[first + CA[q + 2]], below, above) +
          notReached(L[first + CA[q + 7]], H[first + CA[q + 6]], below, above) +
          notReached(L[first + CA[q + 11]], H[first + CA[q + 10]], below, above);
  if (k > first) {
    double h = H[first + CA[4 * k - 2]], l = L[first + CA[4 * k - 1]];
    if (h > maxH) maxH = h;
    if (l < minL) minL = l;
  }
  io[2] = maxH;
  io[3] = minL;
  return k;
}

int firstExit(int from) {
  double below = io[0], above = io[1], maxH = -INFINITY, minL = INFINITY;
  int k = from;
  if (below != below || above != above || k >= n) return scanCandles(k);
  if ((k & (BLOCK - 1)) != 0) {
    int start = k & ~(BLOCK - 1);
    double h = H[start + CA[4 * k]], l = L[start + CA[4 * k + 1]];
    if (l <= below || h >= above) return scanCandles(k);
    if (h > maxH) maxH = h;
    if (l < minL) minL = l;
    k = start + BLOCK;
    if (k >= n) {
      io[2] = maxH;
      io[3] = minL;
      return n;
    }
  }
  if ((k & (SUPER - 1)) != 0) {
    int b = k >> SHIFT;
    double sufHigh = IS[4 * b], sufLow = IS[4 * b + 1];
    if (sufLow > below && sufHigh < above) {
      if (sufHigh > maxH) maxH = sufHigh;
      if (sufLow < minL) minL = sufLow;
      k = ((k >> SUPER_SHIFT) + 1) << SUPER_SHIFT;
    } else {
      const double* w = W;
      int lastBlock = (windowCount >> 3) - 1;
      int g0 = (w[8 * b + 5] > below) & (w[8 * b + 4] < above);
      int y1 = 8 * std::min(b + 4, lastBlock);
      int g1 = g0 & (w[y1 + 5] > below) & (w[y1 + 4] < above);
      int y2 = 8 * std::min(b + 8, lastBlock);
      int g2 = g1 & (w[y2 + 5] > below) & (w[y2 + 4] < above);
      int y = b + 4 * (g0 + g1 + g2);
      int c0 = (w[8 * y + 1] > below) & (w[8 * y] < above);
      int z1 = 8 * std::min(y + 1, lastBlock);
      int c1 = c0 & (w[z1 + 1] > below) & (w[z1] < above);
      int z2 = 8 * std::min(y + 2, lastBlock);
      int c2 = c1 & (w[z2 + 1] > below) & (w[z2] < above);
      int x = y + c0 + c1 + c2;
      if (x > b) {
        int level = 31 - __builtin_clz(x - b);
        int c = 8 * (x - (1 << level)) + 2 * level, d = 8 * b + 2 * level;
        if (w[d] > maxH) maxH = w[d];
        if (w[c] > maxH) maxH = w[c];
        if (w[d + 1] < minL) minL = w[d + 1];
        if (w[c + 1] < minL) minL = w[c + 1];
      }
      io[2] = maxH;
      io[3] = minL;
      return firstInBlock(x);
    }
  }
  while (k < n) {
    int s = k >> SUPER_SHIFT;
    double h = SU[2 * s], l = SU[2 * s + 1];
    if (l > below && h < above) {
      if (h > maxH) maxH = h;
      if (l < minL) minL = l;
      k += SUPER;
      continue;
    }
    int first = s * PER_SUPER, f4 = 4 * first;
    int g = ((IS[f4 + 15] > below) & (IS[f4 + 14] < above)) + ((IS[f4 + 31] > below) & (IS[f4 + 30] < above)) +
            ((IS[f4 + 47] > below) & (IS[f4 + 46] < above));
    int q = f4 + 16 * g;
    int b = first + 4 * g + ((IS[q + 3] > below) & (IS[q + 2] < above)) + ((IS[q + 7] > below) & (IS[q + 6] < above)) +
            ((IS[q + 11] > below) & (IS[q + 10] < above));
    if (b > first) {
      if (IS[4 * b - 2] > maxH) maxH = IS[4 * b - 2];
      if (IS[4 * b - 1] < minL) minL = IS[4 * b - 1];
    }
    io[2] = maxH;
    io[3] = minL;
    return firstInBlock(b);
  }
  io[2] = maxH;
  io[3] = minL;
  return n;
}

double walkIn[4], outPrices[2];
int outCandles[6];

void fastWalk(int dir, int j, bool resting) {
  bool buy = dir > 0;
  double sl = walkIn[1], e = dir * walkIn[0], slD = dir * sl, t1 = dir * walkIn[2], t2 = dir * walkIn[3];
  int* out = outCandles;
  out[0] = 0, out[1] = 0, out[2] = -1, out[3] = -1, out[4] = -1, out[5] = 0;
  double fav = 0, adv = 0;
  int k = j;
  if (resting) {
    double a = buy ? L[j] : -H[j];
    if (a <= slD) {
      out[5] = (buy ? H[j] : -L[j]) >= t1 ? 1 : 0;
      out[4] = j, out[0] = -1, out[1] = -1;
      outPrices[0] = 0;
      outPrices[1] = e - slD > 0 ? e - slD : 0;
      return;
    }
    if (e - a > adv) adv = e - a;
    k = j + 1;
  }
  io[0] = buy ? sl : walkIn[2];
  io[1] = buy ? walkIn[2] : sl;
  int h = firstExit(k);
  double passedF = buy ? io[2] : -io[3], passedA = buy ? io[3] : -io[2];
  if (passedF - e > fav) fav = passedF - e;
  if (e - passedA > adv) adv = e - passedA;
  if (h < n) {
    double a = buy ? L[h] : -H[h], f = buy ? H[h] : -L[h];
    if (a <= slD) {
      out[5] = f >= t1 ? 1 : 0;
      out[4] = h, out[0] = -1, out[1] = -1;
      if (e - slD > adv) adv = e - slD;
    } else {
      if (e - a > adv) adv = e - a;
      out[0] = 1, out[2] = h;
      if (f >= t2) {
        if (t2 - e > fav) fav = t2 - e;
        out[1] = 1, out[3] = h;
      } else {
        if (f - e > fav) fav = f - e;
        if (buy) io[1] = walkIn[3];
        else io[0] = walkIn[3];
        h = firstExit(h + 1);
        passedF = buy ? io[2] : -io[3];
        passedA = buy ? io[3] : -io[2];
        if (passedF - e > fav) fav = passedF - e;
        if (e - passedA > adv) adv = e - passedA;
        if (h < n) {
          a = buy ? L[h] : -H[h];
          f = buy ? H[h] : -L[h];
          if (a <= slD) {
            out[5] = f >= t2 ? 1 : 0;
            out[4] = h, out[1] = -1;
            if (e - slD > adv) adv = e - slD;
          } else {
            if (e - a > adv) adv = e - a;
            if (t2 - e > fav) fav = t2 - e;
            out[1] = 1, out[3] = h;
          }
        }
      }
    }
  }
  outPrices[0] = fav;
  outPrices[1] = adv;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  std::string dir = argv[1];
  int runs = std::atoi(argv[2]);
  auto high = readColumn<double>(dir, "high"), low = readColumn<double>(dir, "low"), windows = readColumn<double>(dir, "windows");
  auto inSuper = readColumn<double>(dir, "inSuper"), supers = readColumn<double>(dir, "supers");
  auto candleAt = readColumn<uint8_t>(dir, "candleAt");
  H = high.data(), L = low.data(), W = windows.data(), IS = inSuper.data(), SU = supers.data(), CA = candleAt.data();
  n = static_cast<int>(high.size());
  windowCount = static_cast<int>(windows.size());
  auto side = readColumn<int8_t>(dir, "side");
  auto entryIndex = readColumn<int32_t>(dir, "entryIndex");
  auto fill = readColumn<double>(dir, "fill"), sl = readColumn<double>(dir, "sl"), tp1 = readColumn<double>(dir, "tp1"), tp2 = readColumn<double>(dir, "tp2");
  auto resting = readColumn<uint8_t>(dir, "resting");
  auto r1 = readColumn<int8_t>(dir, "r1"), r2 = readColumn<int8_t>(dir, "r2");
  auto tp1At = readColumn<int32_t>(dir, "tp1At"), tp2At = readColumn<int32_t>(dir, "tp2At"), slAt = readColumn<int32_t>(dir, "slAt");
  auto fav = readColumn<double>(dir, "fav"), adv = readColumn<double>(dir, "adv");
  int m = static_cast<int>(side.size());
  std::vector<int8_t> o1(m), o2(m);
  std::vector<int32_t> oTp1(m), oTp2(m), oSl(m);
  std::vector<double> oFav(m), oAdv(m), times;
  for (int run = 0; run < runs; run++) {
    std::clock_t c0 = std::clock();
    for (int t = 0; t < m; t++) {
      walkIn[0] = fill[t], walkIn[1] = sl[t], walkIn[2] = tp1[t], walkIn[3] = tp2[t];
      fastWalk(side[t], entryIndex[t], resting[t] == 1);
      o1[t] = outCandles[0], o2[t] = outCandles[1], oTp1[t] = outCandles[2], oTp2[t] = outCandles[3], oSl[t] = outCandles[4];
      oFav[t] = outPrices[0], oAdv[t] = outPrices[1];
    }
    times.push_back((std::clock() - c0) * 1000.0 / CLOCKS_PER_SEC);
  }
  int mismatches = 0;
  for (int t = 0; t < m; t++) {
    if (o1[t] != r1[t] || o2[t] != r2[t] || oTp1[t] != tp1At[t] || oTp2[t] != tp2At[t] || oSl[t] != slAt[t] || oFav[t] != fav[t] || oAdv[t] != adv[t]) mismatches++;
  }
  std::sort(times.begin(), times.end());
  std::printf("{\"trades\":%d,\"mismatches\":%d,\"cpuMs\":[", m, mismatches);
  for (size_t i = 0; i < times.size(); i++) std::printf("%s%.4f", i ? "," : "", times[i]);
  std::printf("]}\n");
  return 0;
}
